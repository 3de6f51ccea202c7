/// The other side of the seam: the peripheral role, in which the app advertises and serves a GATT
/// database to centrals.
///
/// A transport may implement both ``Transport`` (the central role) and this protocol; the virtual
/// radio does (the app becomes one more peripheral on the simulated air). The database is described
/// with the same DSL as simulated peripherals (``Service``, ``Characteristic``): the characteristics'
/// `onRead` and `onWrite` behaviours are the app's handlers.
///
/// ## Contract
///
/// **Database.** ``publish(name:services:)`` replaces the served database; it is checked first (as
/// ``PeripheralSpec/validate()`` checks a spec) and refused whole with
/// ``AirlinkError/Code/invalidSpecification``. The stack adds the GAP (0x1800) and GATT (0x1801)
/// services and a CCCD (0x2902) to every characteristic that notifies or indicates.
///
/// **Reads and writes.** A central's read calls the characteristic's `onRead` handler (or serves the
/// stored value); a write is checked against the value type (``CharacteristicSpec/validate``), then
/// handed to `onWrite`, then stored. A handler refuses with ``ATTRefusal``: the central gets that ATT
/// error (Core Spec Vol 3, Part F, 3.4.1.1) and nothing is stored. Long (prepared) writes are checked
/// the same way when they execute; a central that leaves before executing them changes nothing.
///
/// **Notifications.** ``updateValue(_:of:in:)`` stores a value and sends it to every central that
/// subscribed: a notification or an indication, as each central chose in its CCCD.
///
/// **Security.** A characteristic or descriptor declares what a central's link needs
/// (``AttributePermissions``: encryption, authentication, a key size); the stack answers a central short of it
/// with Insufficient Encryption (0x0F) or Insufficient Authentication (0x05), and the central pairs.
/// ``setSecurity(_:)`` says how the role answers pairing (its IO capabilities, bonding, its user as a
/// ``PairingAgent``, a Security Request); a transport that cannot apply some of it refuses with
/// ``AirlinkError/Code/operationNotSupported`` rather than ignore it (the default implementation refuses all).
///
/// **Events.** ``peripheralEvents()`` gives each caller its own stream of ``PeripheralEvent``s in the
/// order the transport observed them: for one central, `centralConnected` comes first and
/// `centralDisconnected` last; a pairing is `pairingRequested`, then `paired` or `pairingFailed`.
public protocol PeripheralTransport: AnyObject, Sendable {
    /// What a user types to choose this transport: `sim`, `bluez:hci0`.
    var name: String { get }

    /// The address centrals see when this adapter advertises.
    var peripheralAddress: DeviceID { get }

    /// A new stream of what centrals do to the served database, for one subscriber.
    func peripheralEvents() -> EventStream<PeripheralEvent>

    /// Serves a GATT database (replacing one served before).
    ///
    /// - Parameters:
    ///   - name: the GAP Device Name (0x2A00).
    ///   - services: the services, in handle order.
    /// - Throws: ``AirlinkError/Code/invalidSpecification`` naming the fault;
    ///   ``AirlinkError/Code/operationInProgress`` while centrals are connected to the current database.
    func publish(name: String, services: [Service]) async throws(AirlinkError)

    /// Stops serving the database: connected centrals are disconnected, advertising stops.
    func unpublish() async

    /// Starts advertising (local name, service UUIDs, manufacturer data...), connectable.
    ///
    /// - Throws: ``AirlinkError/Code/invalidSpecification`` if the data does not fit a legacy
    ///   advertisement; ``AirlinkError/Code/invalidArgument`` if nothing is published yet;
    ///   ``AirlinkError/Code/adapterPoweredOff``.
    func startAdvertising(_ advertising: Advertising) async throws(AirlinkError)

    /// Stops advertising; connected centrals stay connected.
    func stopAdvertising() async

    /// Stores a characteristic's value and notifies or indicates it to the centrals that subscribed.
    ///
    /// - Throws: ``AirlinkError/Code/characteristicNotFound``; ``AirlinkError/Code/invalidArgument``
    ///   for more than 512 bytes (Core Spec Vol 3, Part F, 3.2.9).
    func updateValue(_ bytes: [UInt8], of characteristic: BluetoothUUID, in service: BluetoothUUID)
        async throws(AirlinkError)

    /// Sets how the role answers centrals that pair, from the next pairing on.
    ///
    /// - Throws: ``AirlinkError/Code/operationNotSupported`` when the transport cannot apply it (naming what);
    ///   ``AirlinkError/Code/invalidArgument`` for a maximum key size outside 7–16.
    func setSecurity(_ security: PeripheralRoleSecurity) async throws(AirlinkError)
}

extension PeripheralTransport {
    /// Refuses: a transport without a Security Manager of its own cannot answer pairing as asked.
    public func setSecurity(_ security: PeripheralRoleSecurity) async throws(AirlinkError) {
        throw AirlinkError(
            .operationNotSupported, "the peripheral role of \(name) cannot set how it pairs; use sim or bluez")
    }
}

/// What a central did to the database a ``PeripheralTransport`` serves.
public enum PeripheralEvent: Sendable, Hashable, CustomStringConvertible {
    /// A central connected.
    case centralConnected(DeviceID)
    /// A central changed its subscription to a characteristic (its CCCD, 0x2902).
    case subscriptionChanged(DeviceID, service: BluetoothUUID, characteristic: BluetoothUUID, mode: NotificationMode)
    /// A central left.
    case centralDisconnected(DeviceID, reason: DisconnectionReason)
    /// A central asks to pair; the method both sides' features chose (on BlueZ, what bluetoothd asks the agent:
    /// Just Works when it asks nothing).
    case pairingRequested(DeviceID, method: PairingMethod)
    /// A pairing (or an encryption with the central's bond, `method` `nil`) ended with the link encrypted.
    case paired(DeviceID, PairingResult)
    /// A pairing failed: the Pairing Failed reason a side sent, `nil` when none was given (SMP's timeout, a
    /// reason BlueZ does not tell).
    case pairingFailed(DeviceID, reason: PairingFailureReason?)

    /// `connected C0:FF:EE:00:00:01`, `C0:... subscribed to 2A19: notify`.
    public var description: String {
        switch self {
        case .centralConnected(let central): "connected \(central)"
        case .subscriptionChanged(let central, _, let characteristic, let mode):
            "\(central) subscription to \(characteristic): \(mode)"
        case .centralDisconnected(let central, let reason): "disconnected \(central): \(reason)"
        case .pairingRequested(let central, let method): "\(central) asks to pair: \(method)"
        case .paired(let central, let result):
            "paired with \(central): \(result.method.map { "\($0) " } ?? "with the bond ")\(result)"
        case .pairingFailed(let central, let reason):
            "pairing with \(central) failed" + (reason.map { ": \($0)" } ?? "")
        }
    }
}
