import AirlinkCore
import Synchronization

/// A remote device, as an object: connect, disconnect, discover its services, read its RSSI and name.
///
/// Obtained from a ``Central`` (one object per device). Built on the device's ``ConnectionManager``;
/// every call runs under the central's ``Watchdog``. The ``RemoteService`` objects it hands out stay
/// valid across reconnections (their handles are rediscovered by the layers when needed).
///
/// ```swift
/// try await peripheral.connect()
/// for service in try await peripheral.discoverServices() { print(service.uuid) }
/// print(try await peripheral.readRSSI(), peripheral.connectionState)
/// ```
public final class Peripheral: Sendable {
    /// The device's identifier.
    public let id: DeviceID
    /// The connection manager underneath (the layers).
    public let connection: ConnectionManager
    let watchdog: WatchdogRunner
    private let state = Mutex(State())

    private struct State {
        var name: String?
        var services: [RemoteService] = []
    }

    init(connection: ConnectionManager, watchdog: WatchdogRunner) {
        self.id = connection.device
        self.connection = connection
        self.watchdog = watchdog
    }

    /// The name last known: advertised during ``Central/discover(named:services:timeout:)``, or read
    /// with ``readName()``; `nil` before either.
    public var name: String? { state.withLock { $0.name } }

    func noteName(_ name: String) { state.withLock { $0.name = name } }

    /// The connection state (disconnected, connecting, connected, ...).
    public var connectionState: ConnectionState { connection.state }

    /// Whether the link is up.
    public var isConnected: Bool {
        if case .connected = connection.state { true } else { false }
    }

    /// Connects.
    ///
    /// - Parameter timeout: the transport's connect timeout (10 s by default); the watchdog's
    ///   ``Watchdog/connectDeadline`` also applies, whichever is shorter.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` when the watchdog gave up (naming the deadline), and what
    ///   ``ConnectionManager/connect(timeout:)`` throws.
    public func connect(timeout: Duration = .seconds(10)) async throws(AirlinkError) {
        let connection = self.connection
        try await watchdog.connect { () async throws(AirlinkError) in try await connection.connect(timeout: timeout) }
    }

    /// Disconnects (returns at once if not connected).
    public func disconnect() async {
        await connection.disconnect()
    }

    /// Discovers the device's services: all of them, or those with the given UUIDs.
    ///
    /// - Parameter uuids: the services of interest, or `nil` for all.
    /// - Returns: the services found, in handle order.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` from the watchdog; what
    ///   ``DeviceServices/discover(_:)`` throws.
    @discardableResult
    public func discoverServices(_ uuids: [BluetoothUUID]? = nil) async throws(AirlinkError) -> [RemoteService] {
        let services = connection.services
        let managers = try await watchdog.operation("discover services") { () async throws(AirlinkError) in
            try await services.discover(uuids)
        }
        let found = managers.map { RemoteService(manager: $0, watchdog: watchdog) }
        state.withLock { state in
            for service in found where !state.services.contains(where: { $0.uuid == service.uuid }) {
                state.services.append(service)
            }
        }
        return managers.map { manager in self.service(manager.uuid)! }
    }

    /// The services discovered so far, in the order found.
    public var services: [RemoteService] { state.withLock { $0.services } }

    /// A discovered service by UUID, or `nil` if it was not discovered.
    public func service(_ uuid: BluetoothUUID) -> RemoteService? {
        state.withLock { $0.services.first { $0.uuid == uuid } }
    }

    /// Reads the signal strength of the link, dBm.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` from the watchdog;
    ///   ``/AirlinkCore/AirlinkError/Code/notConnected``; what the transport's RSSI read throws.
    public func readRSSI() async throws(AirlinkError) -> Int {
        let connection = self.connection
        return try await watchdog.operation("read RSSI") { () async throws(AirlinkError) in
            try await connection.readRSSI()
        }
    }

    /// Reads the GAP Device Name (0x2A00 in 0x1800, Core Spec Vol 3, Part C, 12.1) and remembers it as ``name``.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` from the watchdog; what ``DeviceService/read(_:)`` throws;
    ///   ``/AirlinkCore/AirlinkError/Code/malformedData`` if the name is not UTF-8.
    public func readName() async throws(AirlinkError) -> String {
        let gap = connection.services.service(BluetoothUUID(0x1800))
        let name = try await watchdog.operation("read the device name") { () async throws(AirlinkError) in
            try await gap.read(String.self, from: BluetoothUUID(0x2A00))
        }
        noteName(name)
        return name
    }
}
