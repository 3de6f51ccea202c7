import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation

/// What the library itself answers on the built-in world: the CLI's output is checked against it
/// rather than against numbers copied into the tests.
enum Oracle {
    /// Reads a characteristic through the layers on a fresh simulation of the built-in world.
    static func read(_ device: DeviceID, _ service: BluetoothUUID, _ characteristic: BluetoothUUID) async throws
        -> [UInt8]
    {
        try await connected(to: device) { connection in
            try await connection.services.service(service).read(characteristic)
        }
    }

    /// The first `count` notified values of a characteristic on the built-in world.
    static func notifications(
        _ device: DeviceID, _ service: BluetoothUUID, _ characteristic: BluetoothUUID, count: Int
    ) async throws -> [[UInt8]] {
        try await connected(to: device) { connection in
            let values = connection.services.service(service).values(of: characteristic)
            try await connection.services.service(service).enableNotifications(for: characteristic)
            var received: [[UInt8]] = []
            for await value in values {
                received.append(value.bytes)
                if received.count == count { break }
            }
            return received
        }
    }

    /// Runs `body` connected to `device` on a fresh simulation of the built-in world (seed 1, as the
    /// CLI's default), then disconnects.
    private static func connected<Result: Sendable>(
        to device: DeviceID, _ body: @escaping @Sendable (ConnectionManager) async throws -> Result
    ) async throws -> Result {
        let sim = Simulation(seed: 1, strict: true)
        _ = try sim.add(SimulatedWorld.builtIn)
        let (radio, environment) = (sim.radio, sim.environment)
        return try await sim.run {
            let manager = DeviceManager(transport: radio, environment: environment)
            defer { manager.shutdown() }
            let connection = manager.connection(to: device)
            try await connection.connect(timeout: .seconds(5))
            let result = try await body(connection)
            await connection.disconnect()
            return result
        }
    }
}

/// `0x0a0b`, as the CLI prints bytes.
func hex(_ bytes: [UInt8]) -> String {
    "0x" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}
