import AirlinkCore
import Synchronization

/// The entry point of the object API: hands out one ``Peripheral`` object per device, by discovery
/// or by identifier, each operation on the object it concerns.
///
/// Built on a ``DeviceManager`` (the layers): every call goes through its ``ConnectionManager`` and
/// ``DeviceService``s, on whatever transport the manager has. A ``Watchdog`` gives up on connection
/// attempts and operations stuck past their deadline.
///
/// ```swift
/// let central = try Central(manager: DeviceManager(transport: transport, environment: environment))
/// let thermostat = central.peripheral("C0:FF:EE:00:00:01")
/// try await thermostat.connect()
/// let services = try await thermostat.discoverServices()
/// ```
public final class Central: Sendable {
    /// The device manager whose layers (discovery, connections, services) the objects use.
    public let manager: DeviceManager
    /// The deadlines every peripheral of this central gets.
    public let watchdog: Watchdog
    private let known = Mutex<[(DeviceID, Peripheral)]>([])

    /// A central on a device manager.
    ///
    /// - Parameters:
    ///   - manager: the device manager (its transport and environment).
    ///   - watchdog: the deadlines; 30 s for connecting and for each operation by default.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a deadline that is not positive.
    public init(manager: DeviceManager, watchdog: Watchdog = Watchdog()) throws(AirlinkError) {
        try watchdog.validate()
        self.manager = manager
        self.watchdog = watchdog
    }

    /// The peripheral object of a device: always the same object for the same identifier.
    ///
    /// No radio traffic happens here; ``Peripheral/connect(timeout:)`` tells whether the device is there.
    public func peripheral(_ id: DeviceID) -> Peripheral {
        known.withLock { known in
            if let found = known.first(where: { $0.0 == id }) { return found.1 }
            let connection = manager.connection(to: id)
            let peripheral = Peripheral(
                connection: connection,
                watchdog: WatchdogRunner(watchdog: watchdog, environment: manager.environment, connection: connection))
            known.append((id, peripheral))
            return peripheral
        }
    }

    /// The peripheral objects of devices known by identifier (CoreBluetooth's
    /// `retrievePeripherals(withIdentifiers:)`): one per distinct identifier, in the order given.
    ///
    /// - Parameter identifiers: the devices, for example from a ``/AirlinkRegistry/DeviceRegistry`` or a previous
    ///   session.
    public func retrievePeripherals(withIdentifiers identifiers: [DeviceID]) -> [Peripheral] {
        var seen: [DeviceID] = []
        for id in identifiers where !seen.contains(id) { seen.append(id) }
        return seen.map(peripheral)
    }

    /// The peripherals handed out so far, in the order first asked for.
    public var peripherals: [Peripheral] { known.withLock { $0.map(\.1) } }

    /// Scans for `timeout` and returns the peripherals found, in the order first seen, each with the
    /// name it advertised.
    ///
    /// - Parameters:
    ///   - pattern: a regular expression the whole advertised name must match, or `nil`.
    ///   - services: services of interest (a device advertising one matches), or `nil`.
    ///   - timeout: how long to scan.
    /// - Throws: what ``DeviceManager/discover(named:services:timeout:options:)`` throws.
    public func discover(
        named pattern: String? = nil, services: [BluetoothUUID]? = nil, timeout: Duration
    ) async throws(AirlinkError) -> [Peripheral] {
        let discovery = try await manager.discover(named: pattern, services: services, timeout: timeout)
        _ = await discovery.waitUntilStopped()
        return discovery.devices.map { device in
            let found = peripheral(device.id)
            if let name = device.name { found.noteName(name) }
            return found
        }
    }
}
