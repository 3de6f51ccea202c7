/// A simulated peripheral, declared like a datasheet: name, address, advertising, services with typed
/// values, behaviours, a timeline and a position.
///
/// ```swift
/// extension PeripheralSpec {
///     /// Battery Service 1.0: level notifies every minute, draining 1 % per step.
///     static func battery(level: UInt8 = 87) -> PeripheralSpec {
///         PeripheralSpec(name: "Battery", id: "B4:77:E2:00:00:02") {
///             Advertising(every: .milliseconds(100)) { LocalName("Battery"); ServiceUUIDs(.battery) }
///             Service(.battery) {
///                 Characteristic(.batteryLevel, properties: [.read, .notify], value: BatteryLevel(level))
///                     .updates(every: .seconds(60)) { $0.drained(by: 1) }
///             }
///         }
///     }
/// }
/// ```
///
/// A spec is a value and transport-neutral: the virtual radio simulates it, a BlueZ peripheral
/// fixture can serve it, and the peripheral role of both transports checks a published database with
/// it. It is checked when it is added to a simulation (``validate()``). Only the virtual radio reads
/// ``position``, ``measuredPower``, ``maximumDataLength``, ``maximumConnections``, ``timeline``,
/// ``genericAttribute`` and ``bondsWithCentrals`` (on a real adapter the air, the controller and bluetoothd
/// decide them); why they live in AirlinkCore anyway is
/// in Docs/adr/0010-peripheral-specs-in-core.md.
public struct PeripheralSpec: Sendable {
    /// The device's name: the Device Name characteristic (0x2A00) and the name in messages.
    public var name: String
    /// The device's identifier (its address).
    public var id: DeviceID
    /// The Appearance characteristic's value (0x2A01).
    public var appearance: Appearance
    /// How it advertises; `nil` if it does not.
    public var advertising: Advertising?
    /// Its services, in handle order.
    public var services: [Service]
    /// Where it stands, in metres from the central (virtual radio only: its path-loss model).
    public var position: Position
    /// The RSSI a central measures at 1 m, in dBm (virtual radio only: the path-loss model's reference).
    public var measuredPower: Double
    /// The ATT receive MTU it announces in an MTU exchange.
    public var preferredMTU: Int
    /// The longest LL payload it accepts, 27–251 bytes (LE Data Length Extension; virtual radio only).
    public var maximumDataLength: Int
    /// How many centrals may be connected at once; it stops advertising when the limit is reached
    /// (virtual radio only).
    public var maximumConnections: Int
    /// The firmware's initial state.
    public var initialState: PeripheralState
    /// Scripted actions at virtual times, from when the simulation adds the peripheral (virtual radio
    /// only).
    public var timeline: [At]
    /// Characteristics declared outside a service (a fault ``validate()`` reports).
    public var characteristicsWithoutService: [CharacteristicSpec]
    /// The characteristics its Generic Attribute service serves: Service Changed, Client Supported Features
    /// and the Database Hash unless some are left out (Core Spec Vol 3, Part G, 7; Docs/GATTCaching.md). Virtual
    /// radio only: on an adapter, bluetoothd serves its own Generic Attribute service.
    public var genericAttribute: GenericAttributeCharacteristics = .all
    /// Whether it treats every central that connects as bonded, without pairing (virtual radio only). A bonded
    /// central's Service Changed subscription, Client Supported Features and change-aware state outlive the
    /// connection, and a database change while it is away is indicated when it comes back (Core Spec Vol 3,
    /// Part G, 2.5.2.1 and 7.1). Off by default: every connection starts afresh, change-aware, unless it paired
    /// and bonded (``security``).
    public var bondsWithCentrals = false
    /// How its Security Manager answers pairing and what its user does (virtual radio only; on an adapter,
    /// bluetoothd and its agent decide). By default a device without display or keyboard that bonds.
    public var security = PeripheralSecurity()

    /// Declares a peripheral.
    ///
    /// - Parameters:
    ///   - name: the device name.
    ///   - id: the device's address, for example `"C0:FF:EE:00:00:01"`.
    ///   - appearance: its appearance (unknown by default).
    ///   - position: where it stands (1 m away by default).
    ///   - measuredPower: the RSSI at 1 m, −59 dBm by default.
    ///   - preferredMTU: the ATT MTU it accepts, 247 by default.
    ///   - maximumDataLength: its LL data length, 251 by default.
    ///   - maximumConnections: how many centrals it serves at once, 1 by default.
    ///   - content: ``Advertising``, ``Service``s, ``State`` entries and ``Timeline`` entries.
    public init(
        name: String, id: DeviceID, appearance: Appearance = Appearance(0), position: Position = .metres(1),
        measuredPower: Double = -59, preferredMTU: Int = 247, maximumDataLength: Int = 251,
        maximumConnections: Int = 1, @PeripheralSpecBuilder _ content: () -> [PeripheralComponent]
    ) {
        self.name = name
        self.id = id
        self.appearance = appearance
        self.position = position
        self.measuredPower = measuredPower
        self.preferredMTU = preferredMTU
        self.maximumDataLength = maximumDataLength
        self.maximumConnections = maximumConnections
        advertising = nil
        services = []
        initialState = PeripheralState()
        timeline = []
        characteristicsWithoutService = []
        for component in content() {
            switch component {
            case .advertising(let advertising): self.advertising = advertising
            case .service(let service): services.append(service)
            case .state(let entry): initialState[entry.key, as: (any Sendable).self] = entry.value
            case .timeline(let entries): timeline += entries
            case .characteristicWithoutService(let characteristic): characteristicsWithoutService.append(characteristic)
            }
        }
    }

    /// The byte-level GATT database definition (without 0x1800 and 0x1801, which the database adds).
    public var gattDefinition: GATTServerDefinition {
        gattDefinition(services: services)
    }

    /// The definition for another set of services of this peripheral (after a database change).
    public func gattDefinition(services: [Service]) -> GATTServerDefinition {
        GATTServerDefinition(
            deviceName: name, appearance: appearance.rawValue, services: services.map(\.definition),
            genericAttribute: genericAttribute)
    }

    /// Returns a copy at another position.
    public func at(_ position: Position) -> PeripheralSpec {
        var copy = self
        copy.position = position
        return copy
    }

    /// Returns a copy whose Generic Attribute service serves `characteristics` only.
    public func with(genericAttribute characteristics: GenericAttributeCharacteristics) -> PeripheralSpec {
        var copy = self
        copy.genericAttribute = characteristics
        return copy
    }

    /// Returns a copy with another identifier.
    public func with(id: DeviceID) -> PeripheralSpec {
        var copy = self
        copy.id = id
        return copy
    }

    /// Returns a copy that sends a Security Request (SMP 0x0B) with `request` after each link's setup, as a
    /// peripheral that wants its link encrypted before it serves anything (``PeripheralSecurity/request``).
    public func requestingSecurity(_ request: SecurityRequest = SecurityRequest()) -> PeripheralSpec {
        var copy = self
        copy.security.request = request
        return copy
    }
}
