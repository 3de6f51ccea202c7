import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkRegistry
import Foundation

/// Which device a command connects to.
enum DeviceTarget: Sendable {
    /// A device as typed (discovered or not: connecting needs no scan), resolved against the
    /// registry and the transport's devices (``/AirlinkRegistry/DeviceQuery/resolve(among:)``).
    case id(DeviceQuery)
    /// The device the registry connected to last.
    case last
}

/// What every connecting command does around its own work: open the session and the registry,
/// connect (recording the connection), run the command's body, disconnect, wait for the record.
enum ConnectingCommand {
    /// Connects to `target`, runs `body` with the connection, and disconnects; `prepare` runs first, with the
    /// device manager and the device, before connecting.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from opening the transport or the registry, `prepare`, connecting,
    ///   or `body`.
    static func withConnection<Success: Sendable>(
        _ options: CentralOptions, to target: DeviceTarget,
        prepare: (@Sendable (DeviceManager, DeviceID) async throws -> Void)? = nil,
        _ body: @escaping @Sendable (Session, ConnectionManager) async throws -> Success
    ) async throws -> Success {
        let session = try await Session.open(options.global)
        defer { session.close() }
        let store = try options.registry.open()
        // On sim, the layers save into an in-memory stage written back after the run (see
        // StagedDeviceRepository); on BlueZ, into the repository itself.
        let stage = session.isSimulated ? StagedDeviceRepository(records: try await store.knownDevices()) : nil
        let registry = stage.map { DeviceRegistry(repository: $0) } ?? store
        let location = options.registry.location
        let (strategy, timeout) = (options.strategy, options.timeout)
        // Virtual time starts at zero in each invocation and may run ahead of the wall clock (a
        // subscription of ten virtual minutes): records are stamped from the wall clock at the start,
        // never before the newest record, so that the registry orders invocations as they happened.
        // A newest record more than a day ahead of the wall clock is not trusted to stamp new ones.
        let now = RecordTimestamp(Date())
        let newest = try await registry.lastConnectedDevice()?.lastConnected.advanced(by: .milliseconds(1))
        let started = newest.map { $0 > now && $0 <= now.advanced(by: .seconds(86_400)) ? $0 : now } ?? now
        let target = try await resolve(target, registry: registry, session: session, within: timeout)
        let outcome: Result<Success, any Error>
        do {
            outcome = .success(
                try await run(session, registry, location, strategy, timeout, started, target, prepare, body))
        } catch {
            outcome = .failure(error)
        }
        try await stage?.flush(into: store.repository)
        if session.isSimulated { try await nameWorldDevices(in: store) }
        return try outcome.get()
    }

    /// Names the built-in world's devices in the registry where no scan of this process heard them (a
    /// `connect` on `sim` does not scan): the name each advertises.
    private static func nameWorldDevices(in store: DeviceRegistry) async throws(AirlinkError) {
        for spec in SimulatedWorld.builtIn.peripherals {
            guard let record = try await store.record(for: spec.id), record.name == nil else { continue }
            let name = spec.name
            _ = try await store.repository.update(spec.id) { stored throws(AirlinkError) in
                var named = stored ?? record
                if named.name == nil { named.name = name }
                return named
            }
        }
    }

    /// The target with a typed id resolved to the device the registry, or the transport, knows at that address; on
    /// BlueZ, a device it does not list (forgotten, or lost with a restart of bluetoothd) is scanned for first, for
    /// at most `limit` (``DeviceSearch/findForgotten(_:on:within:advice:)``).
    private static func resolve(
        _ target: DeviceTarget, registry: DeviceRegistry, session: Session, within limit: Duration
    ) async throws -> DeviceTarget {
        guard case .id(let query) = target else { return target }
        try await DeviceSearch.findForgotten(query, on: session, within: limit, advice: "give --connect-timeout more")
        return .id(DeviceQuery(exactly: try session.resolve(query, known: try await registry.knownDevices().map(\.id))))
    }

    private static func run<Success: Sendable>(
        _ session: Session, _ registry: DeviceRegistry, _ location: String, _ strategy: any ReconnectionStrategy,
        _ timeout: Duration, _ started: RecordTimestamp, _ target: DeviceTarget,
        _ prepare: (@Sendable (DeviceManager, DeviceID) async throws -> Void)?,
        _ body: @escaping @Sendable (Session, ConnectionManager) async throws -> Success
    ) async throws -> Success {
        let (transport, environment) = (session.transport, session.environment)
        return try await session.run { () async throws -> Success in
            let recordClock = RecordClock(
                environment.clock, epoch: started.advanced(by: .zero - environment.clock.now.offset))
            let manager = DeviceManager(
                transport: transport, environment: environment, registry: registry, recordClock: recordClock)
            // Ends with the manager's event streams, at its shutdown; awaited so that no warning is lost.
            let staleWarnings = session.isSimulated ? nil : StaleStackCacheWarning.watch(manager)
            let connection: ConnectionManager
            switch target {
            case .id(let query):
                connection = manager.connection(to: query.id, reconnection: strategy)
            case .last:
                guard let record = try await registry.lastConnectedDevice() else {
                    manager.shutdown()
                    throw AirlinkError(
                        .deviceNotFound,
                        "the registry \(location) remembers no device; connect to one first with airlink connect ID")
                }
                connection = try await manager.connection(toKnown: record.id, reconnection: strategy)
            }
            do {
                try await prepare?(manager, connection.device)
                try await connection.connect(timeout: timeout)
                let result = try await body(session, connection)
                // The registry lists a device's services from a full discovery; a command that only read
                // one service discovered only that one. BlueZ holds them all once connected and the
                // simulation answers in virtual time, so this costs no air time.
                // try?: the command's own result is in hand; a failed full discovery only leaves the registry's
                // list of services as it was.
                _ = try? await connection.services.discover()
                await connection.disconnect()
                await manager.waitForRecords()
                manager.shutdown()
                await staleWarnings?.value
                return result
            } catch {
                await connection.disconnect()
                await manager.waitForRecords()
                manager.shutdown()
                await staleWarnings?.value
                throw error
            }
        }
    }
}
