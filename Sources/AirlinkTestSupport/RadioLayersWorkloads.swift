import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation

/// The layers' reference workloads on the virtual radio and the built-in thermostat: what a user
/// runs, over ATT as the radio speaks it. Run small by the tests (to check they do what they say)
/// and large by `Benchmarks/LayersBenchmarks` (to measure them, next to the scripted-transport
/// ones of ``LayersWorkloads``).
package enum RadioLayersWorkloads {
    /// A simulation with the thermostat on its radio, a device manager, and the thermostat's
    /// temperature service.
    package struct World: Sendable {
        package let sim: Simulation
        package let manager: DeviceManager
        package let connection: ConnectionManager
        package let temperature: DeviceService
        package let thermostat: SimulatedPeripheral
    }

    /// A new world; `connected` connects to the thermostat first.
    ///
    /// - Parameter capacity: values buffered per observer (a burst larger than it is reported as missed).
    package static func world(
        seed: UInt64 = 1, tracing: Bool = false, connected: Bool = true, capacity: Int = 8192
    ) async throws -> World {
        let sim = Simulation(seed: seed, strict: true, tracing: tracing, logger: LayersWorkloads.quiet)
        let peripherals = try sim.add(SimulatedWorld([.thermostat(id: LayersWorkloads.thermostat)]))
        let manager = DeviceManager(
            transport: sim.radio, environment: sim.environment,
            configuration: .init(notificationBufferCapacity: capacity))
        let connection = manager.connection(to: LayersWorkloads.thermostat)
        let world = World(
            sim: sim, manager: manager, connection: connection,
            temperature: connection.services.service(.thermostatTemperatureService), thermostat: peripherals[0])
        if connected { try await sim.run { try await connection.connect(timeout: .seconds(3)) } }
        return world
    }

    /// One full cycle: connect, discover every service, read the temperature, disconnect.
    /// Call inside `world.sim.run`, with the thermostat disconnected.
    package static func fullCycle(_ world: World) async throws {
        try await world.connection.connect(timeout: .seconds(3))
        try await world.connection.services.discover()
        _ = try await world.temperature.read(.thermostatTemperature)
        await world.connection.disconnect()
    }

    /// Reads the temperature `count` times in a row through the layers; returns the sum of the
    /// first bytes (so that the reads are not optimised away).
    package static func reads(_ count: Int, in world: World) async throws -> Int {
        let temperature = world.temperature
        return try await world.sim.run {
            var sum = 0
            for _ in 0..<count { sum &+= Int(try await temperature.read(.thermostatTemperature)[0]) }
            return sum
        }
    }

    /// Enables temperature notifications; the first step of ``notifications(_:in:)``.
    package static func subscribe(_ world: World) async throws {
        let temperature = world.temperature
        try await world.sim.run { _ = try await temperature.enableNotifications(for: .thermostatTemperature) }
    }

    /// Has the thermostat notify its temperature `count` times in bursts of 100 and waits until an
    /// `AsyncSequence` observer received them all; returns how many it received and how many it missed.
    package static func notifications(_ count: Int, in world: World) async throws -> (received: Int, missed: Int) {
        let (sim, thermostat) = (world.sim, world.thermostat)
        let stream = world.temperature.values(of: .thermostatTemperature)
        return try await sim.run {
            let consumer = LayersWorkloads.consume(stream, count: count, in: sim)
            var sent = 0
            while sent < count {
                let burst = min(100, count - sent)
                try thermostat.burstNotifications(of: .thermostatTemperature, count: burst)
                sent += burst
                try await sim.clock.sleep(for: .milliseconds(100))
            }
            return await consumer.value
        }
    }
}
