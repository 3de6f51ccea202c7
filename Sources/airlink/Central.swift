import Airlink
import AirlinkCore
import AirlinkRegistry
import Foundation

/// Which device a command connects to.
enum DeviceTarget: Sendable {
    /// A device by id (discovered or not: connecting needs no scan).
    case id(DeviceID)
    /// The device the registry connected to last.
    case last
}

/// What every connecting command does around its own work: open the session and the registry,
/// connect (recording the connection), run the command's body, disconnect, wait for the record.
enum Central {
    /// Connects to `target`, runs `body` with the connection, and disconnects.
    ///
    /// - Throws: ``AirlinkError`` from opening the transport or the registry, connecting, or `body`.
    static func withConnection<Success: Sendable>(
        _ options: CentralOptions, to target: DeviceTarget,
        _ body: @escaping @Sendable (Session, ConnectionManager) async throws -> Success
    ) async throws -> Success {
        let session = try await Session.open(options.global)
        defer { session.close() }
        let registry = try options.registry.open()
        let location = options.registry.location
        let (strategy, timeout) = (options.strategy, options.timeout)
        let started = RecordTimestamp(Date())
        let (transport, environment) = (session.transport, session.environment)
        return try await session.run { () async throws -> Success in
            // Virtual time starts at zero in each invocation: records are stamped from the wall clock
            // at the start of this one, so that they order across invocations.
            let recordClock = RecordClock(
                environment.clock, epoch: started.advanced(by: .zero - environment.clock.now.offset))
            let manager = DeviceManager(
                transport: transport, environment: environment, registry: registry, recordClock: recordClock)
            let connection: ConnectionManager
            switch target {
            case .id(let device):
                connection = manager.connection(to: device, reconnection: strategy)
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
