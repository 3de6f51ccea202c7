import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import Testing

@Suite struct RadioFaultTests {
    /// A simulation with a connected sensor and an event recorder.
    private func connected(seed: UInt64 = 1) async throws -> (
        Simulation, SimulatedPeripheral, Recorder<TransportEvent>, ConnectedSensor
    ) {
        let sim = Simulation(seed: seed, strict: true)
        let peripheral = try sim.add(Fixture.sensor())
        let radio = sim.radio
        let events = recordEvents(of: radio, in: sim)
        let sensor = try await sim.run { try await ConnectedSensor.connect(radio) }
        return (sim, peripheral, events, sensor)
    }

    /// Starts a read that stays pending, then returns how it ended and when.
    private func pendingRead(
        _ sim: Simulation, _ sensor: ConnectedSensor, during fault: @escaping @Sendable () -> Void
    ) async throws -> (Result<[UInt8], AirlinkError>, AirlinkInstant) {
        let radio = sim.radio
        return try await sim.run {
            let read = sim.spawn {
                await outcome { () async throws(AirlinkError) in
                    try await radio.read(Fixture.sensorID, handle: sensor.handle(Fixture.blob))
                }
            }
            try await sim.clock.sleep(for: .milliseconds(5))
            fault()
            let result = await read.value
            return (result, sim.clock.now)
        }
    }

    @Test func droppingTheLinkFailsPendingOperationsWithLinkLost() async throws {
        // Given a connected sensor with a read in flight
        let (sim, peripheral, events, sensor) = try await connected()
        let start = sim.now

        // When the peripheral drops the link
        let (result, end) = try await pendingRead(sim, sensor) { peripheral.dropLink(reason: .remoteUserTerminated) }

        // Then the read fails at once with linkLost, and .disconnected(0x13) is the link's last event
        #expect(throws: AirlinkError.self) { try result.get() }
        if case .failure(let error) = result { #expect(error.code == .linkLost) }
        #expect(start.duration(to: end) == .milliseconds(5))
        #expect(events.values.last?.name == "disconnected(19)")
        #expect(sim.trace.events(in: "fault").contains { $0.contains("drops its links") })
    }

    @Test func movingOutOfRangeLosesTheLinkAfterTheSupervisionTimeout() async throws {
        let (sim, peripheral, events, sensor) = try await connected()
        let start = sim.now
        let (result, end) = try await pendingRead(sim, sensor) { peripheral.moveOutOfRange() }
        if case .failure(let error) = result {
            #expect(error.code == .linkLost)
        } else {
            Issue.record("read succeeded")
        }
        #expect(start.duration(to: end) == .milliseconds(425))
        #expect(events.values.last?.name == "disconnected(8)")
    }

    @Test func comingBackBeforeTheSupervisionTimeoutKeepsTheLink() async throws {
        let (sim, peripheral, events, sensor) = try await connected()
        let (result, _) = try await pendingRead(sim, sensor) {
            peripheral.moveOutOfRange()
            peripheral.schedule(.moveBackInRange, after: .milliseconds(200))
        }
        #expect(try result.get().count == 300)
        #expect(!events.values.contains { $0.name.hasPrefix("disconnected") })
    }

    @Test func aResetLosesTheLinkAndRestoresTheSpecValues() async throws {
        let (sim, peripheral, events, _) = try await connected()
        try peripheral.setValue(UInt16(99), of: Fixture.counter)
        peripheral.reset()
        try await sim.run(for: .seconds(1))
        #expect(events.values.last?.name == "disconnected(8)")
        #expect(try peripheral.value(of: Fixture.counter, as: UInt16.self) == 7)
        let radio = sim.radio
        let info = try await sim.run { try await radio.connect(Fixture.sensorID, timeout: .seconds(5)) }
        #expect(info.mtu == 247)
    }

    @Test func injectedConnectFailuresAreTheErrorsBlueZUsersMeet() async throws {
        // Given a sensor whose next two connection attempts fail, as BlueZ reports them
        let sim = Simulation(seed: 1, strict: true)
        let peripheral = try sim.add(Fixture.sensor())
        peripheral.failNextConnects(1, with: .abortedByLocal)
        peripheral.failNextConnects(1, with: .alreadyInProgress)
        let radio = sim.radio

        // When the central tries three times
        let results = try await sim.run {
            var results: [Result<LinkInfo, AirlinkError>] = []
            for _ in 0..<3 {
                results.append(
                    await outcome { () async throws(AirlinkError) in
                        try await radio.connect(Fixture.sensorID, timeout: .seconds(5))
                    })
            }
            return results
        }

        // Then the first two fail with connectionFailed and operationInProgress, the third connects
        guard case .failure(let first) = results[0], case .failure(let second) = results[1] else {
            Issue.record("expected two failures")
            return
        }
        #expect(first.code == .connectionFailed)
        #expect(first.cause == .bluez(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"))
        #expect(second.code == .operationInProgress)
        #expect((try? results[2].get())?.mtu == 247)
        #expect(sim.trace.events(in: "fault").filter { $0.contains("connection attempt fails") }.count == 2)
    }

    @Test func anInjectedATTErrorAnswersTheMatchingRequest() async throws {
        let (sim, peripheral, _, sensor) = try await connected()
        peripheral.respond(to: .read(Fixture.counter), with: .insufficientAuthentication)
        let radio = sim.radio
        let (first, second) = try await sim.run {
            let first = await outcome { () async throws(AirlinkError) in
                try await radio.read(Fixture.sensorID, handle: sensor.handle(Fixture.counter))
            }
            let second = await outcome { () async throws(AirlinkError) in
                try await radio.read(Fixture.sensorID, handle: sensor.handle(Fixture.counter))
            }
            return (first, second)
        }
        if case .failure(let error) = first {
            #expect(error.attError == .insufficientAuthentication)
        } else {
            Issue.record("the first read succeeded")
        }
        #expect(try second.get() == [7, 0])
        #expect(
            sim.trace.events(in: "fault").contains {
                $0.contains("answers ATT_READ_REQ with Insufficient Authentication")
            })
    }

    @Test func anUnansweredRequestTimesOutAfter30SecondsAndClosesTheLink() async throws {
        let (sim, peripheral, events, sensor) = try await connected()
        peripheral.neverRespond(to: .read(nil))
        let start = sim.now
        let (result, end) = try await pendingRead(sim, sensor) {}
        if case .failure(let error) = result { #expect(error.code == .timeout) } else { Issue.record("read succeeded") }
        #expect(start.duration(to: end) >= .seconds(30))
        #expect(start.duration(to: end) < .seconds(31))
        #expect(events.values.last?.name == "disconnected(22)")
    }

    @Test func delayedResponsesArriveLate() async throws {
        let (sim, peripheral, _, sensor) = try await connected()
        peripheral.delayResponses(to: .read(Fixture.counter), by: .seconds(2))
        let radio = sim.radio
        let elapsed = try await sim.run {
            let start = sim.clock.now
            _ = try await radio.read(Fixture.sensorID, handle: sensor.handle(Fixture.counter))
            return start.duration(to: sim.clock.now)
        }
        #expect(elapsed > .seconds(2))
        #expect(elapsed < .milliseconds(2_100))
    }

    @Test func poweringTheAdapterOffDropsEveryLinkThenReportsTheState() async throws {
        let (sim, _, events, sensor) = try await connected()
        let (result, _) = try await pendingRead(sim, sensor) { sim.radio.powerOffAdapter() }
        if case .failure(let error) = result {
            #expect(error.code == .linkLost)
        } else {
            Issue.record("read succeeded")
        }
        #expect(events.values.suffix(2).map(\.name) == ["disconnected(22)", "adapter(off)"])
        let radio = sim.radio
        let whileOff = try await sim.run {
            await outcome { () async throws(AirlinkError) in
                try await radio.connect(Fixture.sensorID, timeout: .seconds(1))
            }
        }
        if case .failure(let error) = whileOff { #expect(error.code == .adapterPoweredOff) }
        sim.radio.powerOnAdapter()
        try await sim.run(for: .seconds(1))
        #expect(events.values.last?.name == "adapter(on)")
        #expect(events.values.filter { $0.name == "connected" }.count == 1)
    }

    @Test func aDatabaseChangeIndicatesServiceChanged() async throws {
        let (sim, peripheral, events, _) = try await connected()
        peripheral.changeDatabase {
            Service(.battery) { Characteristic(.batteryLevel, properties: [.read], value: UInt8(50)) }
        }
        try await sim.run(for: .milliseconds(200))
        #expect(events.values.last?.name == "servicesChanged")
        let radio = sim.radio
        let services = try await sim.run { try await radio.discoverServices(Fixture.sensorID, uuids: nil) }
        #expect(services.map(\.uuid) == [.genericAccess, .genericAttribute, .battery])
    }

    @Test func aBurstOfNotificationsArrivesWhole() async throws {
        let (sim, peripheral, events, sensor) = try await connected()
        let radio = sim.radio
        try await sim.run {
            try await radio.setNotifications(
                Fixture.sensorID, characteristic: sensor.characteristics[Fixture.counter]!, mode: .notify)
        }
        try peripheral.burstNotifications(of: Fixture.counter, count: 50) { [UInt8($0), 0] }
        try await sim.run(for: .seconds(1))
        let values = events.values.compactMap { event -> UInt8? in
            if case .notification(_, _, let value) = event { return value[0] }
            return nil
        }
        #expect(values == (0..<50).map { UInt8($0) })
    }
}
