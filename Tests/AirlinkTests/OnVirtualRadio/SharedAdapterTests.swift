import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkRegistry
import AirlinkSimulation
import AirlinkTestSupport
import Synchronization
import Testing

/// Two apps on one adapter (``VirtualRadio/session()``), as two processes share a BlueZ adapter: links are
/// the adapter's, scans and notifications each app's own.
@Suite struct SharedAdapterTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// Two apps, each with its own device manager and registry, over one simulated adapter.
    struct TwoApps {
        let sim = Simulation(seed: 7, strict: true)
        let first: DeviceManager
        let second: DeviceManager

        init() throws {
            _ = try sim.add(SimulatedWorld([.thermostat()]))
            first = DeviceManager(
                transport: sim.radio, environment: sim.environment,
                registry: DeviceRegistry(repository: InMemoryDeviceRepository()))
            second = DeviceManager(
                transport: sim.radio.session(), environment: sim.environment,
                registry: DeviceRegistry(repository: InMemoryDeviceRepository()))
        }

        func shutdown() {
            first.shutdown()
            second.shutdown()
        }
    }

    /// Both apps connected to the thermostat, the first following its temperature, the second having read it (its
    /// characteristics discovered): their temperature services.
    static func firstFollowingSecondReading(_ apps: TwoApps) async throws -> (DeviceService, DeviceService) {
        let first = apps.first.connection(to: Self.thermostat)
        let second = apps.second.connection(to: Self.thermostat)
        let firstService = first.services.service(.thermostatTemperatureService)
        let secondService = second.services.service(.thermostatTemperatureService)
        try await apps.sim.run {
            try await first.connect(timeout: .seconds(3))
            try await second.connect(timeout: .seconds(3))
            _ = try await firstService.enableNotifications(for: .thermostatTemperature)
            _ = try await secondService.read(Int16.self, from: .thermostatTemperature)
        }
        return (firstService, secondService)
    }

    @Test func oneAppsDisconnectIsALossInTheOtherAndItsStrategyApplies() async throws {
        // Given two apps connected to the same thermostat, the second with a linear strategy
        let apps = try TwoApps()
        let first = apps.first.connection(to: Self.thermostat)
        let second = apps.second.connection(
            to: Self.thermostat, reconnection: .linear(wait: .seconds(1), attempts: 2, timeout: .seconds(3)))
        let seen = Mutex<[String]>([])
        let events = second.events()
        apps.sim.spawn {
            for await event in events { seen.withLock { $0.append(String(event.name.prefix { $0 != "(" })) } }
        }
        try await apps.sim.run {
            try await first.connect(timeout: .seconds(3))
            try await second.connect(timeout: .seconds(3))
        }

        // When the first app disconnects (Device1.Disconnect: the link goes down for every app)
        try await apps.sim.run { await first.disconnect() }
        try await apps.sim.run(for: .seconds(5))

        // Then the second app saw the loss, and its strategy reconnected it
        #expect(seen.withLock { $0 } == ["connected", "lost", "willReconnect", "reconnected"])
        #expect(second.state.isConnected)
        apps.shutdown()
    }

    @Test func oneAppsUnsubscribeLeavesTheOthersNotifications() async throws {
        // Given two apps following the thermostat's temperature over one link
        let apps = try TwoApps()
        let first = apps.first.connection(to: Self.thermostat)
        let second = apps.second.connection(to: Self.thermostat)
        let firstService = first.services.service(.thermostatTemperatureService)
        let secondService = second.services.service(.thermostatTemperatureService)
        let values = secondService.values(of: .thermostatTemperature)
        let received = Mutex(0)
        apps.sim.spawn {
            for await _ in values { received.withLock { $0 += 1 } }
        }
        try await apps.sim.run {
            try await first.connect(timeout: .seconds(3))
            try await second.connect(timeout: .seconds(3))
            _ = try await firstService.enableNotifications(for: .thermostatTemperature)
            _ = try await secondService.enableNotifications(for: .thermostatTemperature)
        }
        let before = received.withLock { $0 }

        // When the first app disables them and the temperature changes
        try await apps.sim.run {
            try await firstService.disableNotifications(for: .thermostatTemperature)
            try await firstService.write(Int16(2300), to: .thermostatTemperature)
        }
        try await apps.sim.run(for: .seconds(2))

        // Then the second app is still notified
        #expect(received.withLock { $0 } > before)
        apps.shutdown()
    }

    /// The first app's unsubscribe, asked for while the second app's subscribe is on air, must not turn the CCCD
    /// off after it: the second app still wants the values.
    @Test func oneAppsUnsubscribeWhileTheOthersSubscribeIsOnAirLeavesThemOn() async throws {
        // Given two apps connected to the thermostat, the first following its temperature, the second having
        // read it (its characteristics discovered)
        let apps = try TwoApps()
        let (firstService, secondService) = try await Self.firstFollowingSecondReading(apps)
        let values = secondService.values(of: .thermostatTemperature)
        let received = Mutex<[[UInt8]]>([])
        apps.sim.spawn {
            for await value in values { received.withLock { $0.append(value.bytes) } }
        }

        // When the second app subscribes, and the first unsubscribes while the second's write is on air
        try await apps.sim.run {
            async let subscribed = secondService.enableNotifications(for: .thermostatTemperature)
            try await apps.sim.clock.sleep(for: .milliseconds(1))
            try await firstService.disableNotifications(for: .thermostatTemperature)
            _ = try await subscribed
        }
        #expect(received.withLock { $0 }.isEmpty)
        try await apps.sim.run { try await firstService.write(Int16(2300), to: .thermostatTemperature) }
        try await apps.sim.run(for: .seconds(2))

        // Then the second app is still notified as the temperature changes
        #expect(!received.withLock { $0 }.isEmpty)
        apps.shutdown()
    }

    @Test func anUnsubscribeSkippedForASubscribeThatThenFailsIsWrittenAfterIt() async throws {
        // Given two apps connected to the thermostat, the first following its temperature, and a thermostat
        // that refuses the next CCCD write
        let apps = try TwoApps()
        let (firstService, secondService) = try await Self.firstFollowingSecondReading(apps)
        let thermostat = try #require(apps.sim.peripheral(Self.thermostat))
        thermostat.respond(to: .write(.clientCharacteristicConfiguration), with: .insufficientResources)

        // When the second app subscribes (refused) and the first unsubscribes while that write is on air
        let refused = try await apps.sim.run { () -> AirlinkError? in
            async let subscribed = secondService.enableNotifications(for: .thermostatTemperature)
            try await apps.sim.clock.sleep(for: .milliseconds(1))
            try await firstService.disableNotifications(for: .thermostatTemperature)
            do { _ = try await subscribed } catch { return error as? AirlinkError }
            return nil
        }

        // Then the second app's subscribe failed, and the CCCD was turned off after it: no app wants them
        #expect(refused?.code == .attribute)
        let last = try #require(apps.sim.trace.records.subscriptionChanges.last)
        #expect(!last.notify && !last.indicate)
        apps.shutdown()
    }

    @Test func forgettingInOneAppsRegistryLeavesTheOthers() async throws {
        // Given two apps that connected to the thermostat, each recording it in its own registry
        let apps = try TwoApps()
        let first = apps.first.connection(to: Self.thermostat)
        let second = apps.second.connection(to: Self.thermostat)
        try await apps.sim.run {
            try await first.connect(timeout: .seconds(3))
            try await second.connect(timeout: .seconds(3))
        }

        // When the first app forgets it
        let known = try await apps.sim.run { () -> [DeviceID] in
            _ = try await apps.first.registry!.forget(Self.thermostat)
            return try await apps.second.registry!.knownDevices().map(\.id)
        }

        // Then the second app's registry still knows it
        #expect(known == [Self.thermostat])
        apps.shutdown()
    }

    @Test func oneAppsScanGoesOnWhenTheOtherStopsItsOwn() async throws {
        // Given both apps scanning on one adapter
        let sim = Simulation(seed: 7, strict: true)
        _ = try sim.add(SimulatedWorld([.thermostat()]))
        let session = sim.radio.session()
        let heard = Mutex(0)
        let events = session.events()
        sim.spawn {
            for await event in events {
                if case .advertisement = event { heard.withLock { $0 += 1 } }
            }
        }
        try await sim.run {
            try await sim.radio.startScan(ScanFilter(allowDuplicates: true))
            try await session.startScan(ScanFilter(allowDuplicates: true))
        }

        // When the first stops its scan
        try await sim.run { await sim.radio.stopScan() }
        let before = heard.withLock { $0 }
        try await sim.run(for: .seconds(5))

        // Then the adapter still scans for the second
        #expect(heard.withLock { $0 } > before)
        sim.radio.shutdown()
    }
}
