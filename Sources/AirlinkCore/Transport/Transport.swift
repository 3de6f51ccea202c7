/// The one seam between Airlink's layers and a Bluetooth stack: the central role.
///
/// Two implementations exist: the virtual radio of `AirlinkSimulation` (deterministic, in-process)
/// and the BlueZ backend (a real adapter over D-Bus). The layers above (discovery, connection,
/// services, notifications, the registry) use only this protocol and never ask which one runs.
///
/// ## Contract
///
/// **Events.** ``events()`` gives each caller its own stream of ``TransportEvent``s, delivered in the
/// order the transport observed them. For one device: ``TransportEvent/connected(_:)`` comes before
/// any notification of that link; ``TransportEvent/disconnected(_:reason:)`` is the last event of a
/// link, and no notification of that link follows it. An adapter power-off is reported as
/// ``TransportEvent/adapterStateChanged(_:)`` after the `disconnected` event of every link it dropped.
///
/// **Pending operations.** When a link drops, every operation pending on it fails promptly with
/// ``AirlinkError/Code/linkLost`` (the reason kept as the cause); none hangs. An operation on a
/// device that is not connected fails at once with ``AirlinkError/Code/notConnected``; any operation
/// while the adapter is off fails at once with ``AirlinkError/Code/adapterPoweredOff``.
///
/// **GATT.** A transport serializes requests per link (one outstanding ATT request, as a GATT client
/// must); callers may issue operations concurrently. Discovery calls are answered from the device
/// (the virtual radio speaks ATT) or from the stack's own cache (BlueZ resolves every service after
/// connecting and publishes D-Bus objects): the results are the same values either way, so layers do
/// not care. Values are read and written whole: a transport performs Read Blob and Prepared Writes
/// for long values itself. ATT errors from the peer surface as ``AirlinkError/Code/attribute`` with
/// ``AirlinkError/Cause/att(_:handle:)``.
///
/// **Deadlines.** A GATT operation completes or fails with ``AirlinkError/Code/timeout`` within
/// 30 s (ATT's transaction timeout, Core Spec Vol 3, Part F, 3.3.3) of the moment the caller issued
/// it: time spent waiting behind other operations on the link counts, so a caller's timeout means
/// what it says. A request that is on air when its caller's deadline passes may keep the bearer
/// until its own transaction timeout, which then closes the link. The virtual radio arms each
/// operation's deadline when it is called; BlueZ's D-Bus calls carry their timeout from the call,
/// BlueZ queueing behind it. The layers above count the same 30 s from the app's call, their own
/// queue and any discovery an operation needs first (several calls, one deadline) included.
///
/// **Several apps.** A transport object is one client of its adapter (one D-Bus connection to bluetoothd);
/// apps sharing an adapter are several clients of it (on the virtual radio, `VirtualRadio.session()`). A link
/// is the adapter's: ``connect(_:timeout:)`` to a device another client connected returns that link at once
/// (the virtual radio then announces it again with ``TransportEvent/connected(_:)``, so that the caller's
/// layers see the link they joined), and ``disconnect(_:)`` takes it down for every client, as
/// `Device1.Disconnect` does: the others receive ``TransportEvent/disconnected(_:reason:)`` and treat it as a
/// loss. Notifications and scans are each client's: a client's ``setNotifications(_:characteristic:mode:)``
/// with `.disabled` turns the CCCD off only when no other client wants the values, and ``stopScan()`` stops
/// the adapter's scan only when no other client scans. Every client hears every event of the adapter.
///
/// **Cancellation.** Cancelling the task of a `connect` cancels the attempt; cancelling any other
/// operation abandons its result (the request may still complete on air) and throws
/// ``AirlinkError/Code/cancelled``.
public protocol Transport: AnyObject, Sendable {
    /// What a user types to choose this transport: `sim`, `bluez:hci0`.
    var name: String { get }

    /// The adapter's current power state.
    var adapterState: AdapterState { get async }

    /// A new stream of everything the transport observes, for one subscriber.
    ///
    /// Each call returns an independent stream; events are delivered to subscribers in the order
    /// they subscribed. The stream ends when the transport is shut down.
    func events() -> TransportEvents

    /// Starts scanning: advertisements arrive as ``TransportEvent/advertisement(_:_:)`` events.
    ///
    /// Starting a scan while one runs replaces its filter.
    /// - Throws: ``AirlinkError/Code/adapterPoweredOff``, ``AirlinkError/Code/transportUnavailable``.
    func startScan(_ filter: ScanFilter) async throws(AirlinkError)

    /// Stops scanning; does nothing if no scan runs.
    func stopScan() async

    /// Connects to a device, waiting up to `timeout` for the link (and, on stacks that resolve
    /// services on connect, for them to be resolved).
    ///
    /// - Returns: the link's parameters once it is usable.
    /// - Throws: ``AirlinkError/Code/timeout`` past `timeout` (the attempt is cancelled);
    ///   ``AirlinkError/Code/connectionFailed`` when the stack or the device refused, with the cause
    ///   kept (for example BlueZ's `le-connection-abort-by-local`);
    ///   ``AirlinkError/Code/operationInProgress`` when another attempt to the device is under way;
    ///   ``AirlinkError/Code/deviceNotFound``; ``AirlinkError/Code/adapterPoweredOff``.
    func connect(_ device: DeviceID, timeout: Duration) async throws(AirlinkError) -> LinkInfo

    /// Disconnects from a device; returns once the link is down. Does nothing if not connected.
    func disconnect(_ device: DeviceID) async

    /// The services of a connected device: all of them, or those with the given UUIDs.
    func discoverServices(_ device: DeviceID, uuids: [BluetoothUUID]?) async throws(AirlinkError) -> [GATTService]

    /// The characteristics of a service: all of them, or those with the given UUIDs.
    func discoverCharacteristics(
        _ device: DeviceID, of service: GATTService, uuids: [BluetoothUUID]?
    ) async throws(AirlinkError) -> [GATTCharacteristic]

    /// The descriptors of a characteristic.
    func discoverDescriptors(
        _ device: DeviceID, of characteristic: GATTCharacteristic, in service: GATTService
    ) async throws(AirlinkError) -> [GATTDescriptor]

    /// Reads the whole value of a characteristic or descriptor by its handle.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`), as ``write(_:handle:value:type:)`` does: a
    /// request is the layers' most frequent call, and a hop on entry and on return was a measurable part of it
    /// (Docs/Performance.md). A conformance whose function is not `nonisolated(nonsending)` still satisfies it.
    nonisolated(nonsending) func read(_ device: DeviceID, handle: ATTHandle) async throws(AirlinkError) -> [UInt8]

    /// Reads the value of the first attribute of `type` in the device's database, the way a client reads
    /// the Database Hash (0x2B2A): one Read By Type Request over every handle (Core Spec Vol 3, Part G, 4.8.2).
    ///
    /// The default implementation, for stacks that do not expose ATT requests (BlueZ), finds the first
    /// characteristic of `type` by discovery and reads it; a stack that speaks ATT (the virtual radio) sends
    /// the one request.
    ///
    /// - Returns: the value, or `nil` when the device has no attribute of that type.
    func readValue(_ device: DeviceID, ofType type: BluetoothUUID) async throws(AirlinkError) -> [UInt8]?

    /// Writes a characteristic's or descriptor's value by its handle.
    ///
    /// A write with response returns once the peer confirmed it; a write without response returns
    /// once the value is queued on the link, and fails with ``AirlinkError/Code/invalidArgument`` if
    /// it is longer than the link's MTU minus 3.
    nonisolated(nonsending) func write(
        _ device: DeviceID, handle: ATTHandle, value: [UInt8], type: WriteType
    ) async throws(AirlinkError)

    /// Turns notifications or indications of a characteristic on or off (its CCCD, 0x2902).
    ///
    /// Values then arrive as ``TransportEvent/notification(_:handle:value:)`` events. On BlueZ a
    /// value that arrives before this call returns is delivered, not lost.
    func setNotifications(
        _ device: DeviceID, characteristic: GATTCharacteristic, mode: NotificationMode
    ) async throws(AirlinkError)

    /// Reads the RSSI of a connected device, in dBm.
    func readRSSI(_ device: DeviceID) async throws(AirlinkError) -> Int

    /// The link's current parameters (the negotiated ATT MTU first among them).
    func linkInfo(_ device: DeviceID) async throws(AirlinkError) -> LinkInfo

    /// Pairs with a connected device, or encrypts the link again with an existing bond (Transport+Pairing.swift
    /// has the contract).
    ///
    /// - Parameters:
    ///   - device: a connected device.
    ///   - features: what this side's Pairing Request offers: IO capabilities, MITM, bonding, key size.
    ///   - agent: this side's user, asked for passkeys and confirmations.
    /// - Returns: the method, the link's security level and key size, and whether both sides bonded.
    /// - Throws: ``AirlinkError/Code/pairingFailed``, ``AirlinkError/Code/bondLost``, ``AirlinkError/Code/timeout``,
    ///   ``AirlinkError/Code/operationInProgress``, ``AirlinkError/Code/operationNotSupported`` for a transport
    ///   that cannot pair, and the link's errors.
    func pair(_ device: DeviceID, features: PairingFeatures, agent: PairingAgent) async throws(AirlinkError)
        -> PairingResult

    /// Forgets this side's bond with `device`, so that the next ``pair(_:features:agent:)`` pairs afresh; does
    /// nothing when there is none.
    func forgetBond(_ device: DeviceID) async
}

extension Transport {
    /// Finds the first characteristic of `type` by discovery (all services, then each one's characteristics
    /// of that type) and reads it; `nil` when none is found.
    public func readValue(_ device: DeviceID, ofType type: BluetoothUUID) async throws(AirlinkError) -> [UInt8]? {
        for service in try await discoverServices(device, uuids: nil) {
            if let characteristic = try await discoverCharacteristics(device, of: service, uuids: [type]).first {
                return try await read(device, handle: characteristic.valueHandle)
            }
        }
        return nil
    }
}
