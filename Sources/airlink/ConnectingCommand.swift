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
    /// Connects to `target`, runs `body` with the connection, and disconnects.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` from opening the transport or the registry, connecting, or `body`.
    static func withConnection<Success: Sendable>(
        _ options: CentralOptions, to target: DeviceTarget,
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
        let target = try await resolve(target, registry: registry, session: session)
        let outcome: Result<Success, any Error>
        do {
            outcome = .success(try await run(session, registry, location, strategy, timeout, started, target, body))
        } catch {
            outcome = .failure(error)
        }
        try await stage?.flush(into: store.repository)
        return try outcome.get()
    }

    /// The target with a typed id resolved to the device the registry, or the simulated world,
    /// knows at that address.
    private static func resolve(
        _ target: DeviceTarget, registry: DeviceRegistry, session: Session
    ) async throws(AirlinkError) -> DeviceTarget {
        guard case .id(let query) = target else { return target }
        let transportKnows = session.simulatedDevices
        let known = try await registry.knownDevices().map(\.id) + transportKnows
        return .id(DeviceQuery(exactly: try query.resolve(among: known)))
    }

    private static func run<Success: Sendable>(
        _ session: Session, _ registry: DeviceRegistry, _ location: String, _ strategy: any ReconnectionStrategy,
        _ timeout: Duration, _ started: RecordTimestamp, _ target: DeviceTarget,
        _ body: @escaping @Sendable (Session, ConnectionManager) async throws -> Success
    ) async throws -> Success {
        let (transport, environment) = (session.transport, session.environment)
        return try await session.run { () async throws -> Success in
            let recordClock = RecordClock(
                environment.clock, epoch: started.advanced(by: .zero - environment.clock.now.offset))
            let manager = DeviceManager(
                transport: transport, environment: environment, registry: registry, recordClock: recordClock)
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
                try await connection.connect(timeout: timeout)
                let result = try await body(session, connection)
                await connection.disconnect()
                await manager.waitForRecords()
                manager.shutdown()
                return result
            } catch {
                await connection.disconnect()
                await manager.waitForRecords()
                manager.shutdown()
                throw error
            }
        }
    }
}
