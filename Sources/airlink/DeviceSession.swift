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
    /// How long connecting may take, and on BlueZ how long to scan first for a device it does not list.
    static let connectTimeout: Duration = .seconds(10)

    /// Connects to `device` and runs `body` with its connection; on the simulation, in virtual time. On BlueZ, a device
    /// it does not list (forgotten, or lost with a restart of bluetoothd) is scanned for first
    /// (``DeviceSearch/findForgotten(_:on:within:advice:)``).
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
        try await DeviceSearch.findForgotten(query, on: session, within: connectTimeout)
        let device = try session.resolve(query)
        let manager = DeviceManager(transport: session.transport, environment: session.environment)
        defer { manager.shutdown() }
        let clock = session.environment.clock
        return try await session.run {
            let connection = manager.connection(to: device)
            do {
                try await connection.connect(timeout: connectTimeout)
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
