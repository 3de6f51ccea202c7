import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkRegistry
import AirlinkSimulation
import ArgumentParser
import Logging

/// Where the device commands (`sensortag`, `thermostat`, `battery`) run: a device manager on the
/// transport the user chose, connected to one device.
///
/// The only transport-dependent part of those commands, on ``Session``: the built-in simulated world
/// (virtual time, seeded) or a real adapter.
enum DeviceSession {
    /// Connects to `device` and runs `body` with its connection; on the simulation, in virtual time.
    ///
    /// - Parameters:
    ///   - global: the shared flags (transport, seed).
    ///   - device: the device to connect to.
    ///   - body: the command's work, given the connection and a clock for timestamps.
    static func run<Value: Sendable>(
        _ global: GlobalOptions, device text: String,
        _ body: @escaping @Sendable (ConnectionManager, AirlinkClock) async throws -> Value
    ) async throws -> Value {
        let query = try DeviceQuery(parsing: text)
        let session = try await Session.open(global)
        defer { session.close() }
        let device = try session.resolve(query)
        let manager = DeviceManager(transport: session.transport, environment: session.environment)
        defer { manager.shutdown() }
        let clock = session.environment.clock
        return try await session.run {
            let connection = manager.connection(to: device)
            do {
                try await connection.connect(timeout: .seconds(10))
                let value = try await body(connection, clock)
                await connection.disconnect()
                return value
            } catch {
                // Disconnect before the transport closes, so that no disconnect is left to fail with it.
                await connection.disconnect()
                throw error
            }
        }
    }
}
