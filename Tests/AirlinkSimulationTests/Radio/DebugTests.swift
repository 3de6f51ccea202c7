import AirlinkCore
import AirlinkSimulation
import Testing

@Suite struct DebugTests {
    @Test func minimal() async throws {
        let sim = Simulation(seed: 1, strict: true)
        try sim.add(Fixture.sensor())
        let radio = sim.radio
        let count = try await sim.run {
            _ = try await radio.connect(Fixture.sensorID, timeout: .seconds(5))
            print("DEBUG m connected")
            let c = GATTCharacteristic(
                uuid: Fixture.counter, declarationHandle: ATTHandle(0x0B), valueHandle: ATTHandle(0x0C),
                properties: .read)
            let s = GATTService(uuid: Fixture.service, handles: ATTHandle(0x0A)...ATTHandle(0x18))
            let d = try await radio.discoverDescriptors(Fixture.sensorID, of: c, in: s)
            print("DEBUG m done")
            return d.count
        }
        #expect(count == 2)
    }
}
