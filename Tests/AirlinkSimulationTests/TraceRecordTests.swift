import AirlinkCore
import AirlinkSimulation
import Testing

/// The trace is records; its text is their rendering.
@Suite struct TraceRecordTests {
    /// A run with every kind of record: a scan, a link on a second central, reads, a fault, a drop.
    private func run() async throws -> Simulation {
        let sim = Simulation(seed: 3, strict: true)
        let sensor = try sim.add(Fixture.sensor(position: .metres(4)))
        let second = VirtualRadio(simulation: sim, parameters: LinkParameters(connectionInterval: .milliseconds(45)))
        let radio = sim.radio
        try await sim.run {
            try await radio.startScan(ScanFilter())
            try await sim.clock.sleep(for: .milliseconds(300))
            await radio.stopScan()
            let connected = try await ConnectedSensor.connect(second)
            _ = try await second.read(Fixture.sensorID, handle: connected.handle(Fixture.counter))
            sensor.dropLink(reason: .remoteLowResources)
            try await sim.clock.sleep(for: .milliseconds(100))
            radio.shutdown()
            second.shutdown()
        }
        return sim
    }

    @Test func theTextIsTheRenderingOfTheRecords() async throws {
        // Given a traced run
        let sim = try await run()

        // When its records are rendered one line each
        let rendered = sim.trace.records.map { "t=\($0.time) \($0.event.category) \($0.event.text)\n" }.joined()

        // Then they are the trace's text, byte for byte
        #expect(rendered == sim.trace.text)
        #expect(sim.trace.records.count == sim.trace.count)
    }

    @Test func linkLayerFactsAreTypedWithTheRunsValues() async throws {
        // Given a traced run on a second central with a 45 ms interval
        let sim = try await run()
        let events = sim.trace.records.map(\.event)

        // Then its advertisement, link, PDUs and drop are typed records carrying their values
        let heard = events.compactMap { event -> (Int8, [UInt8])? in
            guard case .advertisementHeard(0, Fixture.sensorID, "Sensor", let rssi, let data, true) = event else {
                return nil
            }
            return (rssi, data)
        }
        #expect(!heard.isEmpty)
        #expect(heard.allSatisfy { $0.1 == (try? Fixture.sensor().advertising?.advertisingData()) })
        #expect(
            events.contains(
                .connected(
                    adapter: 1, device: Fixture.sensorID,
                    parameters: ConnectionParameters(
                        interval: .milliseconds(45), latency: 0, supervisionTimeout: .milliseconds(420), phy: .le1M,
                        dataLength: 251))))
        #expect(
            events.contains { event in
                guard case .attPDU(1, Fixture.sensorID, .toCentral, .readResponse(let value), let bytes) = event
                else { return false }
                return value == [7, 0] && bytes == [0x0B, 7, 0]
            })
        #expect(
            events.contains(.disconnected(adapter: 1, device: Fixture.sensorID, reason: .remoteLowResources)))
        #expect(
            events.contains(
                .line(
                    category: "fault",
                    text: "C0:FF:EE:00:00:01 drops its links: \(DisconnectionReason.remoteLowResources)")))
    }
}
