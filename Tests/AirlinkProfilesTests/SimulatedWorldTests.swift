import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkProfiles

@Suite struct SimulatedWorldTests {
    @Test func theBuiltInWorldHasTheThermostatTheBatteryAndTheSensorTagAtDifferentDistances() async throws {
        // Given the built-in world
        let sim = Simulation(seed: 9, strict: true)
        let peripherals = try sim.add(SimulatedWorld.builtIn)
        let radio = sim.radio
        let events = radio.events()

        // When a central scans for two seconds
        let heard = try await sim.run { () -> [DeviceID: [Int]] in
            try await radio.startScan(ScanFilter(allowDuplicates: true))
            try await sim.clock.sleep(for: .seconds(2))
            await radio.stopScan()
            radio.shutdown()
            var heard: [DeviceID: [Int]] = [:]
            for await case .advertisement(let id, let advertisement) in events {
                heard[id, default: []].append(Int(advertisement.rssi ?? 0))
            }
            return heard
        }

        // Then all three are heard, the nearer louder
        #expect(peripherals.map(\.name) == ["Thermostat", "Battery", "SensorTag"])
        let thermostat = heard["C0:FF:EE:00:00:01"] ?? []
        let battery = heard["B4:77:E2:00:00:02"] ?? []
        let sensorTag = heard[PeripheralSpec.sensorTagID] ?? []
        #expect(thermostat.count > 10 && battery.count > 10 && sensorTag.count > 10)
        #expect(thermostat.reduce(0, +) / thermostat.count > battery.reduce(0, +) / battery.count)
        #expect(battery.reduce(0, +) / battery.count > sensorTag.reduce(0, +) / sensorTag.count)
    }
}
