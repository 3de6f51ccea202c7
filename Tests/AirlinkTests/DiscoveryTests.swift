import Airlink
import AirlinkCore
import AirlinkTestSupport
import Testing

@Suite struct DiscoveryTests {
    static let trackers: [TestPeripheral] = [
        .tracker("Tracker", id: "C0:FF:EE:00:00:01", rssi: -50),
        .tracker("MyTracker2", id: "C0:FF:EE:00:00:02"),
        .tracker("Tracker1", id: "C0:FF:EE:00:00:03"),
        .thermostat(id: "C0:FF:EE:00:00:04", name: "Tracker Thermo"),
        .tracker("Tracker A", id: "C0:FF:EE:00:00:05"),
    ]

    @Test func aNamePatternMatchesWholeNamesInTheOrderFirstSeen() async throws {
        // Given five devices advertising every 100 ms, four of them named Tracker-something
        let world = try TestWorld.make(peripherals: Self.trackers)
        let manager = world.manager()
        let discovery = try await world.sim.run {
            for (index, peripheral) in Self.trackers.reversed().enumerated() {
                world.sim.spawn {
                    try? await world.sim.clock.sleep(for: .milliseconds(10 * index))
                    await world.radio.startAdvertising(peripheral.id, every: .milliseconds(100))
                }
            }
            return try await manager.discover(named: "Tracker.*", timeout: .seconds(1))
        }

        // When the discovery runs to its timeout
        let reason = try await world.sim.run { await discovery.waitUntilStopped() }

        // Then the names matching the whole pattern were found once each, first seen first
        #expect(reason == .timeout)
        #expect(discovery.devices.map(\.name) == ["Tracker A", "Tracker Thermo", "Tracker1", "Tracker"])
        #expect(discovery.devices.allSatisfy { $0.sightings == 1 })  // the transport reports each once
        #expect(discovery.devices.last?.rssi == -50)
        #expect(world.sim.now.offset == .seconds(1))
    }

    @Test func nameAndServiceFiltersCombine() async throws {
        // Given trackers advertising Battery and a thermostat named like a tracker advertising its own service
        let world = try TestWorld.make(peripherals: Self.trackers)
        let manager = world.manager()

        // When discovering names matching Tracker.* that advertise the Battery service
        let discovery = try await world.sim.run {
            let discovery = try await manager.discover(named: "Tracker.*", services: [.battery], timeout: .seconds(1))
            for peripheral in Self.trackers { await world.radio.advertise(peripheral.id) }
            await discovery.waitUntilStopped()
            return discovery
        }

        // Then only devices passing both filters were discovered
        #expect(discovery.devices.map(\.name) == ["Tracker", "Tracker1", "Tracker A"])
        // And the transport was asked for the service, the name being matched above it
        let scans = await world.radio.requests.filter { $0.hasPrefix("startScan") }
        #expect(scans == ["startScan services=180F duplicates=false"])
    }

    @Test func eventsAreStartedDiscoveredStoppedAndTheScanStopsAtTheTimeout() async throws {
        // Given one tracker advertising every second
        let world = try TestWorld.make(peripherals: [.tracker("Tracker", id: "C0:FF:EE:00:00:01")])
        let manager = world.manager()

        // When a five-second discovery runs to its end
        let events = try await world.sim.run {
            await world.radio.startAdvertising("C0:FF:EE:00:00:01", every: .seconds(1))
            let discovery = try await manager.discover(timeout: .seconds(5))
            var events: [String] = []
            for await event in discovery.events { events.append(event.name) }
            return events
        }

        // Then it started, found the tracker once, stopped by itself at 5 s, and stopped the scan
        #expect(events == ["started", "discovered", "stopped"])
        #expect(world.sim.now.offset == .seconds(5))
        #expect(await world.radio.requests.suffix(1) == ["stopScan"])
        #expect(
            world.events == [
                "discovery#1 started", "discovery#1 discovered C0:FF:EE:00:00:01 \"Tracker\" rssi=-70",
                "discovery#1 stopped (timeout)",
            ])
    }

    @Test func duplicatesAreReportedOnlyWhenAsked() async throws {
        // Given a tracker advertising three times, and two discoveries, one reporting duplicates
        let world = try TestWorld.make(peripherals: [.tracker("Tracker", id: "C0:FF:EE:00:00:01")])
        let manager = world.manager()
        let (plain, duplicates) = try await world.sim.run {
            let plain = try await manager.discover(timeout: .seconds(1))
            let duplicates = try await manager.discover(
                timeout: .seconds(1), options: ScanOptions(reportsDuplicates: true))
            for _ in 0..<3 { await world.radio.advertise("C0:FF:EE:00:00:01") }
            await plain.waitUntilStopped()
            await duplicates.waitUntilStopped()
            return (plain, duplicates)
        }

        // Then the first reported it once, the second three times; both counted three sightings
        func discoveredCount(_ discovery: Discovery) async -> Int {
            var count = 0
            for await case .discovered in discovery.events { count += 1 }
            return count
        }
        #expect(await discoveredCount(plain) == 1)
        #expect(await discoveredCount(duplicates) == 3)
        #expect(plain.devices.first?.sightings == 3 && duplicates.devices.first?.sightings == 3)
        // And the transport scanned once with duplicates on, the union of both
        #expect(
            await world.radio.requests.last { $0.hasPrefix("startScan") } == "startScan services=all duplicates=true")
    }

    @Test func theListKeepsTheLatestAdvertisementAndRSSI() async throws {
        // Given a discovery that found a tracker at -70 dBm
        let world = try TestWorld.make(peripherals: [.tracker("Tracker", id: "C0:FF:EE:00:00:01")])
        let manager = world.manager()
        let discovery = try await world.sim.run {
            let discovery = try await manager.discover(timeout: .seconds(10))
            await world.radio.advertise("C0:FF:EE:00:00:01")
            return discovery
        }

        // When the tracker comes closer and advertises a new name 3 s later
        try await world.sim.run {
            try await world.sim.clock.sleep(for: .seconds(3))
            await world.radio.setAdvertisement(
                "C0:FF:EE:00:00:01", Advertisement(localName: "Tracker (near)", serviceUUIDs: [.battery], rssi: -40))
            await world.radio.advertise("C0:FF:EE:00:00:01")
        }

        // Then the entry is updated in place: latest name, RSSI and time, two sightings, no new entry
        let device = try #require(discovery.devices.first)
        #expect(discovery.devices.count == 1)
        #expect(device.name == "Tracker (near)" && device.rssi == -40 && device.sightings == 2)
        #expect(device.firstSeen == .zero && device.lastSeen.offset == .seconds(3))
    }

    @Test func aDiscoveryCanBeStoppedEarly() async throws {
        let world = try TestWorld.make(peripherals: [.tracker("Tracker", id: "C0:FF:EE:00:00:01")])
        let manager = world.manager()
        // Given a one-minute discovery
        let discovery = try await world.sim.run { try await manager.discover(timeout: .seconds(60)) }

        // When the app stops it after 2 s
        try await world.sim.run {
            try await world.sim.clock.sleep(for: .seconds(2))
            await discovery.stop()
        }

        // Then it stopped for that reason, at that time, and advertisements no longer count
        #expect(discovery.stopReason == .stopped)
        #expect(!discovery.isRunning)
        try await world.sim.run { await world.radio.advertise("C0:FF:EE:00:00:01") }
        #expect(discovery.devices.isEmpty)
        #expect(world.timedEvents.last == "t=2.000000 discovery#1 stopped (stopped by the app)")
    }

    @Test(arguments: [
        (Duration.zero, nil as String?, nil as [BluetoothUUID]?, "timeout"),
        (.seconds(-3), nil, nil, "timeout"),
        (.seconds(5), "Tracker[", nil, "Tracker["),
        (.seconds(5), "(unclosed", nil, "pattern"),
        (.seconds(5), "(a+)+$", nil, "exponential time"),
        (.seconds(5), "((.*)*)*X", nil, "exponential time"),
        (.seconds(5), "(Tracker|Track)+", nil, "choice (|)"),
        (.seconds(5), "a*a*a*a*X", nil, "more than 2 repetitions"),
        (.seconds(5), nil, [], "services"),
    ])
    func badArgumentsAreTypedErrorsNamingThem(
        timeout: Duration, pattern: String?, services: [BluetoothUUID]?, named: String
    )
        async throws
    {
        // Given a device manager
        let world = try TestWorld.make(peripherals: [])
        let manager = world.manager()

        // When a discovery is asked with a bad argument
        let error = try await world.sim.run {
            await airlinkError { () async throws(AirlinkError) in
                try await manager.discover(named: pattern, services: services, timeout: timeout)
            }
        }

        // Then it fails with invalidArgument naming what was wrong, and no scan started
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains(named) == true)
        #expect(await world.radio.requests.isEmpty)
    }

    @Test func hostileNamesAreMatchedInBoundedTime() async throws {
        // Given devices whose names are built against backtracking matchers: a run of one letter
        // without the final one the pattern wants, escape codes, and a name longer than any
        // advertisement carries (which never matches)
        let hostile: [TestPeripheral] = [
            .tracker(String(repeating: "a", count: 240) + "!", id: "C0:FF:EE:00:00:01"),
            .tracker(String(repeating: "a", count: 247) + "X", id: "C0:FF:EE:00:00:02"),
            .tracker("\u{1B}]0;pwned\u{07}\u{1B}[2J" + String(repeating: "a", count: 200), id: "C0:FF:EE:00:00:03"),
            .tracker(String(repeating: "a", count: 300) + "X", id: "C0:FF:EE:00:00:04"),
        ]
        let world = try TestWorld.make(peripherals: hostile)
        let manager = world.manager()

        // When a discovery with the most repetitions a pattern may hold runs over them (each match
        // costs at most the name's length squared, so the run ends in milliseconds)
        let discovery = try await world.sim.run {
            for peripheral in hostile {
                world.sim.spawn { await world.radio.startAdvertising(peripheral.id, every: .milliseconds(100)) }
            }
            return try await manager.discover(named: "a*.*X", timeout: .seconds(1))
        }
        _ = try await world.sim.run { await discovery.waitUntilStopped() }

        // Then only the name of at most 248 bytes ending in X matched
        #expect(discovery.devices.map(\.id) == ["C0:FF:EE:00:00:02"])
    }

    @Test func theAdapterPoweringOffStopsDiscoveriesAndRefusesNewOnes() async throws {
        // Given a running discovery
        let world = try TestWorld.make(peripherals: [])
        let manager = world.manager()
        let discovery = try await world.sim.run { try await manager.discover(timeout: .seconds(60)) }

        // When the adapter is powered off
        let error = try await world.sim.run {
            await world.radio.setAdapterPower(false)
            await Task.yield()
            return await airlinkError { () async throws(AirlinkError) in
                try await manager.discover(timeout: .seconds(1))
            }
        }

        // Then the discovery stopped for that reason, and a new one fails at once with adapterPoweredOff
        #expect(discovery.stopReason == .adapter(.poweredOff))
        #expect(error?.code == .adapterPoweredOff)
        #expect(error?.message.contains("power it on") == true)
        #expect(try await world.sim.run { await manager.adapterState } == .poweredOff)
        #expect(world.events.contains("adapter off"))
    }
}
