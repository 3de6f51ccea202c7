import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import AirlinkTestSupport
import Testing

/// Finding a characteristic discovers and caches its service's characteristics once: the service's next
/// characteristic is read without discovering again.
@Suite struct CharacteristicDiscoveryCacheTests {
    @Test func readingASecondCharacteristicOfADiscoveredServiceSendsOnlyTheRead() async throws {
        // Given a connected thermostat whose temperature was read (its service and characteristics discovered)
        let sim = Simulation(seed: 2, strict: true)
        let thermostat = try sim.add(.thermostat())
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
        let connection = manager.connection(to: thermostat.id)
        let service = connection.services.service(.thermostatTemperatureService)

        // When the unit, a second characteristic of the same service, is read
        let mark = try await sim.run { () async throws -> Int in
            try await connection.connect(timeout: .seconds(5))
            _ = try await service.read(.thermostatTemperature)
            let mark = sim.trace.count
            _ = try await service.read(.thermostatUnit)
            return mark
        }

        // Then the only request sent is its read: no characteristic discovery again
        let requests = sim.trace.records[mark...].pdusSent
        #expect(requests.count == 1, "\(requests)")
        #expect(requests.first?.opcode == .readRequest, "\(requests)")
        manager.shutdown()
    }

    @Test func aCharacteristicTheServiceLacksIsNamedWithTheOnesItHas() async throws {
        // Given a connected thermostat
        let sim = Simulation(seed: 2, strict: true)
        let thermostat = try sim.add(.thermostat())
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
        let connection = manager.connection(to: thermostat.id)

        // When a characteristic its temperature service does not have is read
        let error = await #expect(throws: AirlinkError.self) {
            try await sim.run {
                try await connection.connect(timeout: .seconds(5))
                _ = try await connection.services.service(.thermostatTemperatureService).read(.batteryLevel)
            }
        }

        // Then the error names the characteristics it has
        #expect(error?.code == .characteristicNotFound)
        #expect(error?.message.contains("68753A44-4D6F-1226-9C60-0050E4C00067") == true, "\(error?.message ?? "")")
        manager.shutdown()
    }
}
