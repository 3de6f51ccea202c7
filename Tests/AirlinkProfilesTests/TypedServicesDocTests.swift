import Airlink
import AirlinkCore
import AirlinkSimulation
import Synchronization
import Testing

@testable import AirlinkProfiles

/// Runs the example of Docs/TypedServices.md, section 7 (keep them in step).
@Suite struct TypedServicesDocTests {
    @Test func theGuidesThermostatExampleRuns() async throws {
        // Given, when: the guide's code
        let sim = Simulation(seed: 3, strict: true)
        let device = try sim.add(.thermostat(temperature: 20))
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
        let (thermostat, readings) = try await sim.run {
            let connection = manager.connection(to: device.id)
            try await connection.connect(timeout: .seconds(5))
            let thermostat = ThermostatService(connection)
            let readings = try await thermostat.temperatures()
            try await thermostat.setSetPoint(21.5)
            return (thermostat, readings)
        }
        let observed = Mutex<[ThermostatReading]>([])  // import Synchronization
        sim.spawn { for await reading in readings { observed.withLock { $0.append(reading) } } }
        try await sim.run(for: .seconds(30))
        let now = try await sim.run { try await thermostat.temperature() }

        // Then what the guide says happens
        let values = observed.withLock { $0 }.map(\.celsius)
        #expect(values.first.map { abs($0 - 20.1) < 0.001 } == true)
        #expect(values.last.map { abs($0 - 21.5) < 0.001 } == true)
        #expect(abs(now.celsius - 21.5) < 0.001)
    }
}
