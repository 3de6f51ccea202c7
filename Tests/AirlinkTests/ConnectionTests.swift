import Airlink
import AirlinkCore
import AirlinkTestKit
import AirlinkTestSupport
import Testing

@Suite struct ConnectionTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    @Test func reconnectsAfterLinkLoss() async throws {
        // Given a connected thermostat and a linear strategy: 3 attempts, 2 s apart
        let world = try TestWorld.make(seed: 7, peripherals: [.thermostat()])
        let manager = world.manager()
        let connection = manager.connection(
            to: Self.thermostat, reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        let events = Recorder.recording(connection.events(), in: world.sim.environment)
        try await world.sim.run { try await connection.connect(timeout: .seconds(3)) }

        // When the link drops and the first attempt fails
        try await world.sim.run {
            await world.radio.failNextConnects(Self.thermostat, 1)
            await world.radio.dropLink(Self.thermostat, reason: .supervisionTimeout)
        }
        try await world.sim.run(for: .seconds(10))

        // Then the second attempt reconnects, at the time the strategy promises: connected at 0.03,
        // lost at 0.03, attempt 1 at 2.03 refused at 2.06, attempt 2 at 4.06, linked at 4.09
        #expect(
            events.values.map(\.name) == ["connected", "lost", "willReconnect(3)", "willReconnect(2)", "reconnected"])
        #expect(world.timedEvents.last == "t=4.090000 C0:FF:EE:00:00:01 reconnected mtu=23")
        #expect(connection.state.isConnected)
        try world.sim.trace.assertMatches("Golden/reconnect-linear.trace")
    }

    @Test func connectAndDisconnectAreReportedOnce() async throws {
        // Given a thermostat
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let manager = world.manager()
        let connection = manager.connection(to: Self.thermostat)
        let events = Recorder.recording(connection.events(), in: world.sim.environment)

        // When the app connects, then disconnects twice
        try await world.sim.run {
            try await connection.connect(timeout: .seconds(1))
            #expect(connection.state.isConnected)
            try await connection.connect(timeout: .seconds(1))  // already connected: returns at once
            await connection.disconnect()
            await connection.disconnect()
        }

        // Then one connected and one terminated were reported; the device is disconnected
        #expect(events.values.map(\.name) == ["connected", "terminated"])
        #expect(connection.state == .disconnected)
        #expect(await world.radio.requests == ["connect C0:FF:EE:00:00:01", "disconnect C0:FF:EE:00:00:01"])
    }

    @Test func aConnectionThatDoesNotAnswerTimesOutWithATypedError() async throws {
        // Given a thermostat that does not answer connection attempts
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let manager = world.manager()
        let connection = manager.connection(to: Self.thermostat)

        // When the app connects with a 2 s timeout
        let error = try await world.sim.run {
            await world.radio.setAnswersConnects(Self.thermostat, false)
            return await airlinkError { () async throws(AirlinkError) in
                try await connection.connect(timeout: .seconds(2))
            }
        }

        // Then it fails with `timeout` exactly 2 s later, reported once as failedToConnect
        #expect(error?.code == .timeout)
        #expect(world.sim.now.offset == .seconds(2))
        #expect(world.layerEvents.map(\.event.name) == ["failedToConnect"])
        #expect(connection.state == .disconnected)
    }

    @Test(arguments: [Duration.zero, .seconds(-1)])
    func aTimeoutThatIsNotPositiveIsRejected(timeout: Duration) async throws {
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let connection = world.manager().connection(to: Self.thermostat)
        let error = try await world.sim.run {
            await airlinkError { () async throws(AirlinkError) in try await connection.connect(timeout: timeout) }
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("connect timeout") == true)
        #expect(await world.radio.requests.isEmpty)
    }

    @Test func anUnknownDeviceIsNotFound() async throws {
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let connection = world.manager().connection(to: "C0:FF:EE:99:99:99")
        let error = try await world.sim.run {
            await airlinkError { () async throws(AirlinkError) in try await connection.connect(timeout: .seconds(1)) }
        }
        #expect(error?.code == .deviceNotFound)
        #expect(error?.message.contains("scan") == true)
    }

    @Test func anInvalidStrategyIsRejectedWhenConnecting() async throws {
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let connection = world.manager().connection(
            to: Self.thermostat, reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .zero))
        let error = try await world.sim.run {
            await airlinkError { () async throws(AirlinkError) in try await connection.connect(timeout: .seconds(1)) }
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("linear reconnection timeout") == true)
    }

    @Test func aSecondConnectWhileConnectingIsOperationInProgress() async throws {
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let connection = world.manager().connection(to: Self.thermostat)
        let (first, second) = try await world.sim.run {
            let first = world.sim.environment.spawn {
                await airlinkError { () async throws(AirlinkError) in try await connection.connect(timeout: .seconds(1))
                }
            }
            await Task.yield()
            let second = await airlinkError { () async throws(AirlinkError) in
                try await connection.connect(timeout: .seconds(1))
            }
            return (await first.value, second)
        }
        #expect(first == nil)
        #expect(second?.code == .operationInProgress)
    }

    @Test func theStrategyGivesUpWhenTheDeviceStaysAway() async throws {
        // Given a connected thermostat with a linear strategy of 3 attempts
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let manager = world.manager()
        let connection = manager.connection(
            to: Self.thermostat, reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        try await world.sim.run { try await connection.connect(timeout: .seconds(1)) }

        // When the link drops and the device stops answering
        try await world.sim.run {
            await world.radio.setAnswersConnects(Self.thermostat, false)
            await world.radio.dropLink(Self.thermostat, reason: .supervisionTimeout)
        }
        try await world.sim.run(for: .seconds(60))

        // Then three attempts timed out and the strategy gave up at 0.03 + 3 × (2 + 3) s
        #expect(await world.radio.requests.filter { $0.hasPrefix("connect") }.count == 4)
        #expect(world.timedEvents.last?.hasPrefix("t=15.030000 C0:FF:EE:00:00:01 gaveUp timeout") == true)
        #expect(connection.state == .disconnected)
    }

    @Test func pendingOperationsFailPromptlyWhenTheLinkDrops() async throws {
        // Given a connected thermostat whose requests take 1 s each, and three reads issued at once
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let manager = world.manager()
        let connection = manager.connection(to: Self.thermostat)
        let service = connection.services.service(.battery)
        let outcomes = Recorder<String>()
        try await world.sim.run {
            try await connection.connect(timeout: .seconds(1))
            await world.radio.setRequestLatency(.seconds(1))
            for index in 0..<3 {
                world.sim.spawn {
                    let error = await airlinkError { () async throws(AirlinkError) in
                        try await service.read(.batteryLevel)
                    }
                    outcomes.append("read\(index) \(error?.code.name ?? "ok") t=\(world.sim.now)")
                }
            }
        }

        // When the link drops 500 ms later, while the first read waits on air and two wait their turn
        try await world.sim.run {
            try await world.sim.clock.sleep(for: .milliseconds(500))
            await world.radio.dropLink(Self.thermostat, reason: .supervisionTimeout)
        }

        // Then all three fail with linkLost at that instant; none hangs
        #expect(
            outcomes.values.sorted() == [
                "read0 linkLost t=0.530000", "read1 linkLost t=0.530000", "read2 linkLost t=0.530000",
            ])
        // And an operation after the loss fails at once with notConnected
        let later = try await world.sim.run {
            await airlinkError { () async throws(AirlinkError) in try await service.read(.batteryLevel) }
        }
        #expect(later?.code == .notConnected)
        #expect(later?.message.contains("connect first") == true)
    }

    @Test func theAdvertisementStrategyWaitsForTheDeviceToComeBack() async throws {
        // Given a connected thermostat with a strategy that waits for it to advertise
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let manager = world.manager()
        let connection = manager.connection(to: Self.thermostat, reconnection: .whenAdvertising(timeout: .seconds(3)))
        try await world.sim.run { try await connection.connect(timeout: .seconds(1)) }

        // When the link drops and the device is away for 30 s, then advertises every 100 ms
        try await world.sim.run {
            await world.radio.dropLink(Self.thermostat, reason: .supervisionTimeout)
            try await world.sim.clock.sleep(for: .seconds(30))
            await world.radio.startAdvertising(Self.thermostat, every: .milliseconds(100))
        }
        try await world.sim.run(for: .seconds(1))

        // Then no attempt was made while it was away; it reconnected right after the first advertisement
        let connects = await world.radio.requests.filter { $0.hasPrefix("connect") }
        #expect(connects.count == 2)
        #expect(world.timedEvents.last == "t=30.060000 C0:FF:EE:00:00:01 reconnected mtu=23")
        // And the scan for it was started while waiting and stopped after
        let scans = await world.radio.requests.filter { $0.contains("Scan") }
        #expect(scans == ["startScan services=all duplicates=true", "stopScan"])
    }

    @Test func poweringTheAdapterOffLosesTheLinkAndReconnectionResumesWhenOn() async throws {
        // Given a connected thermostat with a linear strategy
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let manager = world.manager()
        let connection = manager.connection(
            to: Self.thermostat, reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        try await world.sim.run { try await connection.connect(timeout: .seconds(1)) }

        // When the adapter is powered off for ten minutes
        let whileOff = try await world.sim.run {
            await world.radio.setAdapterPower(false)
            try await world.sim.clock.sleep(for: .seconds(600))
            return await airlinkError { () async throws(AirlinkError) in
                try await connection.services.service(.battery).read(.batteryLevel)
            }
        }
        // Then operations fail with adapterPoweredOff, and no attempt was made meanwhile
        #expect(whileOff?.code == .adapterPoweredOff)
        #expect(await world.radio.requests.filter { $0.hasPrefix("connect") }.count == 1)
        #expect(connection.state == .reconnecting(attempt: 1, remainingAttempts: 3, phase: .waitingForAdapter))

        // When it is powered on again
        try await world.sim.run { await world.radio.setAdapterPower(true) }
        try await world.sim.run(for: .seconds(1))

        // Then the connection came back at once, without using up attempts
        #expect(connection.state.isConnected)
        #expect(world.events.filter { $0.hasPrefix("adapter") } == ["adapter off", "adapter on"])
        #expect(world.timedEvents.last == "t=600.060000 C0:FF:EE:00:00:01 reconnected mtu=23")
    }

    @Test func disconnectingDuringReconnectionStopsIt() async throws {
        // Given a thermostat reconnecting after a loss
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let manager = world.manager()
        let connection = manager.connection(
            to: Self.thermostat, reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        try await world.sim.run {
            try await connection.connect(timeout: .seconds(1))
            await world.radio.dropLink(Self.thermostat, reason: .supervisionTimeout)
        }

        // When the app disconnects during the wait, and a minute passes
        try await world.sim.run { await connection.disconnect() }
        try await world.sim.run(for: .seconds(60))

        // Then the reconnection stopped: terminated, no further attempt
        #expect(await world.radio.requests.filter { $0.hasPrefix("connect") }.count == 1)
        #expect(world.events.last == "C0:FF:EE:00:00:01 terminated")
        #expect(connection.state == .disconnected)
    }

    @Test func cancellingTheConnectingTaskCancelsTheAttempt() async throws {
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let connection = world.manager().connection(to: Self.thermostat)
        let error = try await world.sim.run {
            await world.radio.setAnswersConnects(Self.thermostat, false)
            let task = world.sim.environment.spawn {
                await airlinkError { () async throws(AirlinkError) in
                    try await connection.connect(timeout: .seconds(10))
                }
            }
            try await world.sim.clock.sleep(for: .seconds(1))
            task.cancel()
            return await task.value
        }
        #expect(error?.code == .cancelled)
        #expect(world.sim.now.offset == .seconds(1))
        #expect(connection.state == .disconnected)
    }

    @Test func theSameSeedGivesTheSameTraceAndAnotherSeedOtherWaits() async throws {
        // Given a scenario of losses with exponential back-off and full jitter
        func run(seed: UInt64) async throws -> String {
            let world = try TestWorld.make(seed: seed, peripherals: [.thermostat()])
            let manager = world.manager()
            let connection = manager.connection(
                to: Self.thermostat,
                reconnection: .exponential(initialDelay: .seconds(1), maximumDelay: .seconds(30), timeout: .seconds(2)))
            try await world.sim.run { try await connection.connect(timeout: .seconds(1)) }
            try await world.sim.run {
                for _ in 0..<5 {
                    await world.radio.failNextConnects(Self.thermostat, 2)
                    await world.radio.dropLink(Self.thermostat, reason: .supervisionTimeout)
                    try await world.sim.clock.sleep(for: .seconds(120))
                }
            }
            return world.sim.trace.text
        }

        // When it runs twice with seed 11 and once with seed 12
        let first = try await run(seed: 11)
        let second = try await run(seed: 11)
        let other = try await run(seed: 12)

        // Then the same seed gives a byte-identical trace, and another seed other waits
        #expect(first == second)
        #expect(first != other)
        #expect(first.split(separator: "\n").filter { $0.hasSuffix("reconnected mtu=23") }.count == 5)
    }
}

extension ConnectionTests {
    @Test func oneConnectionManagerPerDeviceWhoseStrategyTheLatestCallSets() throws {
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let manager = world.manager()
        let first = manager.connection(to: Self.thermostat)
        let second = manager.connection(
            to: Self.thermostat, reconnection: .linear(wait: .seconds(1), attempts: 2, timeout: .seconds(2)))
        #expect(first === second)
        #expect(first.reconnectionStrategy is LinearReconnectionStrategy)
        #expect(manager.connections.count == 1)
    }
}
