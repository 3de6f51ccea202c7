import Airlink
import AirlinkCore
import AirlinkSimulation

/// A device manager on a simulation's virtual radio, connected to one device.
struct ConnectedDevice {
    let manager: DeviceManager
    let connection: ConnectionManager

    /// Connects to `id` through the layers (call inside `sim.run`).
    static func connect(_ sim: Simulation, _ id: DeviceID) async throws -> ConnectedDevice {
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
        let connection = manager.connection(to: id)
        try await connection.connect(timeout: .seconds(5))
        return ConnectedDevice(manager: manager, connection: connection)
    }
}
