import Airlink
import AirlinkCore
import AirlinkProfiles
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
        _ global: GlobalOptions, device: DeviceID,
        _ body: @escaping @Sendable (ConnectionManager, AirlinkClock) async throws -> Value
    ) async throws -> Value {
        let session = try await Session.open(global)
        defer { session.close() }
        if session.isSimulated {
            let known = session.simulatedDevices
            guard known.contains(device) else {
                throw ValidationError(
                    "the simulated world has no device \(device); it has "
                        + known.map(\.description).joined(separator: ", ") + " (see airlink scan)")
            }
        }
        let manager = DeviceManager(transport: session.transport, environment: session.environment)
        defer { manager.shutdown() }
        let clock = session.environment.clock
        return try await session.run {
            let connection = manager.connection(to: device)
            try await connection.connect(timeout: .seconds(10))
            let value = try await body(connection, clock)
            await connection.disconnect()
            return value
        }
    }

    /// Parses a device identifier argument.
    ///
    /// - Throws: `ValidationError` saying what to type.
    static func device(_ text: String) throws -> DeviceID {
        guard let id = DeviceID(text) else {
            throw ValidationError(
                "\"\(text)\" is not a device identifier: write an address such as C0:FF:EE:00:00:01 (see airlink scan)")
        }
        return id
    }
}

/// Seconds since the simulation started, for output: `12.340`.
func timestamp(_ instant: AirlinkInstant) -> String {
    let milliseconds = instant.offset.nanoseconds / 1_000_000
    let fraction = String(milliseconds % 1000)
    return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}
