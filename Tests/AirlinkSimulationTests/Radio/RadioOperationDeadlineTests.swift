import AirlinkCore
import AirlinkSimulation
import Testing

/// A GATT operation's 30 s run from when the caller issued it, its wait behind other operations on
/// the link included (the Transport contract).
@Suite struct RadioOperationDeadlineTests {
    @Test func aReadQueuedBehindASlowOneFailsThirtySecondsAfterItWasIssued() async throws {
        // Given a connected sensor that answers the next counter read after 2 s and never answers
        // the next blob read
        let sim = Simulation(seed: 1, strict: true)
        let peripheral = try sim.add(Fixture.sensor())
        let radio = sim.radio
        let sensor = try await sim.run { try await ConnectedSensor.connect(radio) }
        peripheral.delayResponses(to: .read(Fixture.counter), by: .seconds(2))
        peripheral.neverRespond(to: .read(Fixture.blob))

        // When the counter is read, and 1 ms later the blob (queued behind it on the link)
        let (issued, ended, result) = try await sim.run {
            sim.spawn {
                _ = await outcome { () async throws(AirlinkError) in
                    try await radio.read(Fixture.sensorID, handle: sensor.handle(Fixture.counter))
                }
            }
            try await sim.clock.sleep(for: .milliseconds(1))
            let issued = sim.clock.now
            let result = await outcome { () async throws(AirlinkError) in
                try await radio.read(Fixture.sensorID, handle: sensor.handle(Fixture.blob))
            }
            return (issued, sim.clock.now, result)
        }

        // Then the blob read fails with timeout 30 s after it was issued, not 30 s after it was sent
        #expect(throws: AirlinkError.self) { try result.get() }
        if case .failure(let error) = result { #expect(error.code == .timeout) }
        #expect(issued.duration(to: ended) == .seconds(30))
    }

    @Test func aLongReadWhoseRequestsAreEachSlowFailsThirtySecondsAfterItWasIssued() async throws {
        // Given a connected sensor (MTU 247) that answers each of the next two reads of its 300-byte
        // blob 20 s late: a long read is a Read Request then a Read Blob Request, 40 s in all
        let sim = Simulation(seed: 1, strict: true)
        let peripheral = try sim.add(Fixture.sensor())
        let radio = sim.radio
        let sensor = try await sim.run { try await ConnectedSensor.connect(radio) }
        peripheral.delayResponses(to: .read(Fixture.blob), by: .seconds(20), times: 2)

        // When the blob is read
        let (issued, ended, result) = try await sim.run {
            let issued = sim.clock.now
            let result = await outcome { () async throws(AirlinkError) in
                try await radio.read(Fixture.sensorID, handle: sensor.handle(Fixture.blob))
            }
            return (issued, sim.clock.now, result)
        }

        // Then it fails with timeout 30 s after it was issued, though each request alone took 20 s
        if case .failure(let error) = result { #expect(error.code == .timeout) } else { Issue.record("read succeeded") }
        #expect(issued.duration(to: ended) == .seconds(30))
    }
}
