import AirlinkCore
import AirlinkSimulation
import Testing

@Suite struct RadioScanningTests {
    /// Advertisements seen during a scan, with the virtual time each arrived.
    private func scan(
        _ sim: Simulation, filter: ScanFilter, for duration: Duration
    ) async throws -> [(time: AirlinkInstant, id: DeviceID, advertisement: Advertisement)] {
        let radio = sim.radio
        return try await sim.run {
            var seen: [(AirlinkInstant, DeviceID, Advertisement)] = []
            let events = radio.events()
            try await radio.startScan(filter)
            let end = sim.clock.now.advanced(by: duration)
            let watcher = sim.spawn {
                var collected: [(AirlinkInstant, DeviceID, Advertisement)] = []
                for await event in events {
                    if case .advertisement(let id, let advertisement) = event {
                        collected.append((sim.clock.now, id, advertisement))
                    }
                    if sim.clock.now >= end { break }
                }
                return collected
            }
            try await sim.clock.sleep(until: end)
            await radio.stopScan()
            watcher.cancel()  // ends its stream; shutdown would end the radio's later streams too
            seen = await watcher.value
            return seen.map { (time: $0.0, id: $0.1, advertisement: $0.2) }
        }
    }

    @Test func advertisementsArriveAtTheIntervalPlusAdvDelayWithPathLossRSSI() async throws {
        // Given a sensor 2 m away and another 20 m away, advertising every 100 ms
        let sim = Simulation(seed: 3, strict: true)
        try sim.add(Fixture.sensor(position: .metres(2)))
        try sim.add(Fixture.sensor(id: "C0:FF:EE:00:00:09", position: .metres(20)))

        // When a central scans for 2 s, reporting duplicates
        let seen = try await scan(sim, filter: ScanFilter(allowDuplicates: true), for: .seconds(2))

        // Then each is heard every 100–110 ms, the nearer one louder, both near the model's mean
        let near = seen.filter { $0.id == Fixture.sensorID }
        let far = seen.filter { $0.id == "C0:FF:EE:00:00:09" }
        #expect((17...20).contains(near.count))
        for (earlier, later) in zip(near, near.dropFirst()) {
            let gap = earlier.time.duration(to: later.time)
            #expect(gap >= .milliseconds(100) && gap <= .milliseconds(110))
        }
        let meanNear = Double(near.map { Int($0.advertisement.rssi!) }.reduce(0, +)) / Double(near.count)
        let meanFar = Double(far.map { Int($0.advertisement.rssi!) }.reduce(0, +)) / Double(far.count)
        #expect(abs(meanNear - (-59 - 20 * 0.30103)) < 2)
        #expect(abs(meanFar - (-59 - 20 * 1.30103)) < 2)
        #expect(near.first?.advertisement.name == "Sensor")
        #expect(near.first?.advertisement.isConnectable == true)
    }

    @Test func scanFilterAndDuplicatePolicyDecideWhatIsReported() async throws {
        // Given a sensor advertising the Battery service and a beacon that does not
        let sim = Simulation(seed: 4, strict: true)
        try sim.add(Fixture.sensor())
        try sim.add(Fixture.beacon())

        // When a central scans for battery devices without duplicates, then for all with duplicates
        let filtered = try await scan(sim, filter: ScanFilter(services: [.battery]), for: .seconds(2))
        let all = try await scan(sim, filter: ScanFilter(allowDuplicates: true), for: .seconds(1))

        // Then the first scan reports the sensor once; the second hears the beacon, non-connectable
        #expect(filtered.map(\.id) == [Fixture.sensorID])
        let beacon = all.filter { $0.id == Fixture.beaconID }
        #expect(beacon.count >= 4)
        #expect(beacon.allSatisfy { !$0.advertisement.isConnectable })
        #expect(beacon.first?.advertisement.manufacturerData(for: 0x004C) == [0x02, 0x15])
    }

    @Test func aPeripheralMovedOutOfRangeIsNoLongerHeard() async throws {
        // Given a scanning central and a sensor in range
        let sim = Simulation(seed: 5, strict: true)
        let sensor = try sim.add(Fixture.sensor())
        let radio = sim.radio
        let events = recordEvents(of: radio, in: sim)
        try await sim.run { try await radio.startScan(ScanFilter(allowDuplicates: true)) }
        try await sim.run(for: .seconds(1))
        let heardBefore = events.values.count

        // When it moves out of range for a second, then 200 m away
        sensor.moveOutOfRange()
        try await sim.run(for: .seconds(1))
        let heardWhileOut = events.values.count - heardBefore
        sensor.moveBackInRange()
        sensor.move(to: .metres(200))
        try await sim.run(for: .seconds(1))

        // Then nothing is heard while it is out of range or far away, and the fault is in the trace
        #expect(heardBefore >= 9)
        #expect(heardWhileOut == 0)
        #expect(events.values.count == heardBefore)
        #expect(sim.trace.events(in: "fault").contains("C0:FF:EE:00:00:01 moves out of range"))
    }

    @Test func scanningWhileTheAdapterIsOffFails() async throws {
        // Given a powered-off adapter
        let sim = Simulation(seed: 6, strict: true)
        sim.radio.powerOffAdapter()
        let radio = sim.radio

        // When a scan starts
        let error = try await sim.run { () -> AirlinkError? in
            do {
                try await radio.startScan(ScanFilter())
                return nil
            } catch let error as AirlinkError { return error }
        }

        // Then it fails with adapterPoweredOff
        #expect(error?.code == .adapterPoweredOff)
    }
}
