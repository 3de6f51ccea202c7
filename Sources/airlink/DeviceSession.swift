import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import ArgumentParser
import Logging

/// Where the device commands (`sensortag`, `thermostat`, `battery`) run: a device manager on the
/// transport the user chose, connected to one device.
///
/// The only transport-dependent part of those commands: today the built-in simulated world (virtual
/// time, seeded); the lead's session abstraction replaces ``run(_:device:_:)`` when BlueZ is wired in.
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
        switch try TransportChoice(parsing: global.transport) {
        case .simulation:
            var logger = Logger(label: "airlink")
            logger.logLevel = .warning  // the layers' info lines (connected, ...) would drown the output
            let sim = Simulation(seed: global.seed, logger: logger)
            try sim.add(SimulatedWorld.builtIn)
            let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
            let known = SimulatedWorld.builtIn.peripherals.map(\.id)
            guard known.contains(device) else {
                throw ValidationError(
                    "the simulated world has no device \(device); it has "
                        + known.map(\.description).joined(separator: ", ") + " (see airlink scan)")
            }
            let clock = sim.clock
            defer {
                manager.shutdown()
                sim.radio.shutdown()
            }
            return try await sim.run {
                let connection = manager.connection(to: device)
                try await connection.connect(timeout: .seconds(10))
                let value = try await body(connection, clock)
                await connection.disconnect()
                return value
            }
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
