import AirlinkCore
import AirlinkSimulation
import Testing

@Suite struct RadioContractTests {
    private func expectError(
        _ code: AirlinkError.Code, _ body: @escaping @Sendable () async throws -> Void, in sim: Simulation
    ) async throws {
        let error = try await sim.run { () -> AirlinkError? in
            do {
                try await body()
                return nil
            } catch let error as AirlinkError {
                return error
            }
        }
        #expect(error?.code == code, "\(String(describing: error))")
    }

    @Test func operationsOnADeviceThatIsNotConnectedFailAtOnce() async throws {
        // Given a sensor the central never connected to
        let sim = Simulation(seed: 1, strict: true)
        try sim.add(Fixture.sensor())
        let radio = sim.radio

        // When the central reads, and connects to an unknown device
        try await expectError(
            .notConnected, { _ = try await radio.read(Fixture.sensorID, handle: ATTHandle(3)) }, in: sim)
        try await expectError(
            .deviceNotFound, { _ = try await radio.connect("C0:FF:EE:99:99:99", timeout: .seconds(1)) }, in: sim)

        // Then no virtual time passed
        #expect(sim.now == .zero)
    }

    @Test func aSecondConcurrentConnectIsOperationInProgress() async throws {
        let sim = Simulation(seed: 1, strict: true)
        try sim.add(Fixture.sensor())
        let radio = sim.radio
        let outcomes = try await sim.run {
            async let first = outcome { () async throws(AirlinkError) in
                try await radio.connect(Fixture.sensorID, timeout: .seconds(5))
            }
            try await sim.clock.sleep(for: .milliseconds(1))
            let second = await outcome { () async throws(AirlinkError) in
                try await radio.connect(Fixture.sensorID, timeout: .seconds(5))
            }
            return (await first, second)
        }
        #expect((try? outcomes.0.get())?.mtu == 247)
        #expect(throws: AirlinkError.self) { try outcomes.1.get() }
        if case .failure(let error) = outcomes.1 { #expect(error.code == .operationInProgress) }
    }

    @Test func connectingToANonConnectableBeaconTimesOut() async throws {
        let sim = Simulation(seed: 1, strict: true)
        try sim.add(Fixture.beacon())
        let radio = sim.radio
        try await expectError(
            .timeout, { _ = try await radio.connect(Fixture.beaconID, timeout: .seconds(2)) }, in: sim)
        #expect(sim.now == AirlinkInstant(offset: .seconds(2)))
    }

    @Test func cancellingAConnectCancelsTheAttempt() async throws {
        // Given a peripheral out of range, so the attempt waits
        let sim = Simulation(seed: 1, strict: true)
        let sensor = try sim.add(Fixture.sensor())
        sensor.moveOutOfRange()
        let radio = sim.radio

        // When the connecting task is cancelled after 1 s
        let error = try await sim.run { () -> AirlinkError? in
            let task = sim.environment.spawnThrowing {
                try await radio.connect(Fixture.sensorID, timeout: .seconds(10))
            }
            try await sim.clock.sleep(for: .seconds(1))
            task.cancel()
            do {
                _ = try await task.value
                return nil
            } catch let error as AirlinkError {
                return error
            }
        }

        // Then the attempt ends with cancelled at once, and a new attempt may start
        #expect(error?.code == .cancelled)
        #expect(sim.now == AirlinkInstant(offset: .seconds(1)))
        sensor.moveBackInRange()
        let info = try await sim.run { try await radio.connect(Fixture.sensorID, timeout: .seconds(5)) }
        #expect(info.mtu == 247)
    }

    @Test func theSameSeedGivesTheSameTrace() async throws {
        // Given two simulations with one seed and a third with another, each running the same scenario
        func scenario(seed: UInt64) async throws -> String {
            let sim = Simulation(seed: seed, strict: true)
            let sensor = try sim.add(Fixture.sensor())
            try sim.add(Fixture.beacon())
            let radio = sim.radio
            _ = recordEvents(of: radio, in: sim)
            try await sim.run {
                try await radio.startScan(ScanFilter(allowDuplicates: true))
                try await sim.clock.sleep(for: .milliseconds(500))
                await radio.stopScan()
                let connected = try await ConnectedSensor.connect(radio)
                try await radio.setNotifications(
                    Fixture.sensorID, characteristic: connected.characteristics[Fixture.counter]!, mode: .notify)
                _ = try await radio.read(Fixture.sensorID, handle: connected.handle(Fixture.blob))
                _ = try await radio.readRSSI(Fixture.sensorID)
            }
            try sensor.setValue(UInt16(5), of: Fixture.counter)
            sensor.moveOutOfRange()
            try await sim.run(for: .seconds(1))
            return sim.trace.text
        }

        // When they run
        let first = try await scenario(seed: 42)
        let second = try await scenario(seed: 42)
        let other = try await scenario(seed: 43)

        // Then the traces of one seed are identical, and another seed's differ
        #expect(first == second)
        #expect(first != other)
        #expect(first.contains("disconnected: Connection Timeout (0x08)"))
    }

    @Test func aSimulationThatGoesAwayReleasesItsRadio() async throws {
        // Given a simulation with a connected, scanning central
        weak var released: VirtualRadio?
        do {
            let sim = Simulation(seed: 1, strict: true)
            try sim.add(Fixture.sensor())
            let radio = sim.radio
            released = radio
            _ = try await sim.run {
                try await radio.startScan(ScanFilter())
                return try await radio.connect(Fixture.sensorID, timeout: .seconds(5))
            }
        }
        // When it goes out of scope, then the radio, its links and timers are freed
        #expect(released == nil)
    }
}
