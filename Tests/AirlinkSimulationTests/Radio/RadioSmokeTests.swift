import AirlinkCore
import AirlinkSimulation
import Testing

@Suite struct RadioSmokeTests {
    @Test func connectsReadsAndWrites() async throws {
        let sim = Simulation(seed: 1, strict: true)
        try sim.add(Fixture.sensor())
        let radio = sim.radio
        let value = try await sim.run {
            let sensor = try await ConnectedSensor.connect(radio)
            try await radio.write(
                Fixture.sensorID, handle: sensor.handle(Fixture.counter), value: [9, 0], type: .withResponse)
            return try await radio.read(Fixture.sensorID, handle: sensor.handle(Fixture.counter))
        }
        print(sim.trace.text)
        #expect(value == [9, 0])
    }
}
