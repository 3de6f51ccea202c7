import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import Testing

/// When a characteristic's value stream ends: when its source is gone for good, and the app's own
/// `disconnect()` is such an end (the explorer's finding `stream-open-after-disconnect`: an app
/// iterating the values after disconnecting waited until some later `connect`).
@Suite struct ValueStreamEndTests {
    @Test func theAppsDisconnectEndsTheValueStreams() async throws {
        // Given a connected thermostat whose temperature the app follows
        let sim = Simulation(seed: 7, strict: true)
        _ = try sim.add(SimulatedWorld([.thermostat()]))
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
        let connection = manager.connection(
            to: "C0:FF:EE:00:00:01", reconnection: .linear(wait: .seconds(1), attempts: 3, timeout: .seconds(2)))
        let service = connection.services.service(.thermostatTemperatureService)
        let ended = try await sim.run { () -> Bool in
            try await connection.connect(timeout: .seconds(3))
            _ = try await service.enableNotifications(for: .thermostatTemperature)
            let values = service.values(of: .thermostatTemperature)
            let follower = sim.spawn { () -> Bool in
                for await _ in values {}
                return true
            }

            // When the app disconnects
            await connection.disconnect()

            // Then the stream ends (the run would stall on the follower otherwise)
            return await follower.value
        }
        #expect(ended)

        // And a stream asked for afterwards follows the next connection
        let next = try await sim.run { () -> Bool in
            let values = service.values(of: .thermostatTemperature)
            try await connection.connect(timeout: .seconds(3))
            _ = try await service.enableNotifications(for: .thermostatTemperature)
            try await service.write(Int16(2300), to: .thermostatTemperature)
            for await _ in values { return true }
            return false
        }
        #expect(next)
        manager.shutdown()
    }
}
