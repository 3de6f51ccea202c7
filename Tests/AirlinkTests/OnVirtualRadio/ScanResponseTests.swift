import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import Testing

/// Scan responses on the virtual radio: an active scan (the default, as BlueZ scans) gets them, a
/// passive one does not, and discovery merges them into the device it shows.
@Suite struct ScanResponseTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// A strict simulation with the thermostat, and a device manager on its radio.
    private static func world() throws -> (Simulation, DeviceManager) {
        let sim = Simulation(seed: 3, strict: true)
        try sim.add(.thermostat())
        return (sim, DeviceManager(transport: sim.radio, environment: sim.environment))
    }

    /// Discovers for 2 s with `options`, returning what was found.
    private static func discover(named name: String? = nil, _ options: ScanOptions) async throws -> [DiscoveredDevice] {
        let (sim, manager) = try world()
        return try await sim.run {
            let discovery = try await manager.discover(named: name, timeout: .seconds(2), options: options)
            await discovery.waitUntilStopped()
            return discovery.devices
        }
    }

    @Test func anActiveScanShowsTheCompleteNameAndTheScanResponsesData() async throws {
        // When discovering actively (the default), with every advertisement reported
        let found = try await Self.discover(ScanOptions(reportsDuplicates: true))

        // Then the thermostat shows its complete name, the advertised service and the manufacturer data of
        // its scan response; only advertising PDUs count as sightings (about 20 in 2 s at 100 ms)
        let thermostat = try #require(found.first)
        #expect(thermostat.name == "Thermostat")
        #expect(thermostat.advertisement.localName == .complete("Thermostat"))
        #expect(thermostat.advertisement.serviceUUIDs == [.thermostatTemperatureService])
        #expect(thermostat.advertisement.manufacturerData(for: 0xFFFF) == [0xA1, 0xB2])
        #expect(!thermostat.advertisement.isScanResponse)
        #expect((15...25).contains(thermostat.sightings), "\(thermostat.sightings)")
    }

    @Test func withoutDuplicatesADeviceIsDiscoveredOnceAndItsScanResponseMergesIntoIt() async throws {
        // Given the thermostat, whose scan response brings its complete name after the advertisement's shortened one
        let (sim, manager) = try Self.world()

        // When discovering actively with the default options (no duplicates) for 2 s
        let (events, devices) = try await sim.run { () async throws -> ([DiscoveryEvent], [DiscoveredDevice]) in
            let discovery = try await manager.discover(timeout: .seconds(2))
            var events: [DiscoveryEvent] = []
            for await event in discovery.events { events.append(event) }
            return (events, discovery.devices)
        }

        // Then it was reported once, and the device list shows the scan response merged in (complete name, data)
        let discovered = events.compactMap { event -> DeviceID? in
            if case .discovered(let device) = event { device.id } else { nil }
        }
        #expect(discovered == [Self.thermostat])
        #expect(devices.first?.name == "Thermostat")
        #expect(devices.first?.advertisement.manufacturerData(for: 0xFFFF) == [0xA1, 0xB2])
    }

    @Test func withDuplicatesAScanResponseThatChangesTheDeviceIsReported() async throws {
        // Given the thermostat, when discovering with every advertisement reported
        let (sim, manager) = try Self.world()
        let names = try await sim.run { () async throws -> [String?] in
            let discovery = try await manager.discover(
                timeout: .milliseconds(150), options: .init(reportsDuplicates: true))
            var names: [String?] = []
            for await event in discovery.events {
                if case .discovered(let device) = event { names.append(device.name) }
            }
            return names
        }

        // Then the first report shows the shortened name, and the scan response's complete name is reported next
        #expect(Array(names.prefix(2)) == ["Thermost", "Thermostat"], "\(names)")
    }

    @Test func aPassiveScanHearsOnlyTheAdvertisingPDU() async throws {
        // When discovering passively
        let found = try await Self.discover(ScanOptions(reportsDuplicates: true, scansActively: false))

        // Then the thermostat shows the shortened name and no manufacturer data
        let thermostat = try #require(found.first)
        #expect(thermostat.name == "Thermost")
        #expect(thermostat.advertisement.manufacturerData.isEmpty)
    }

    @Test func aNamePatternMatchesTheCompleteName() async throws {
        // When discovering "Thermostat", actively and passively
        let active = try await Self.discover(named: "Thermostat", ScanOptions())
        let passive = try await Self.discover(named: "Thermostat", ScanOptions(scansActively: false))

        // Then only the active scan, which hears the scan response, finds it
        #expect(active.map(\.id) == [Self.thermostat])
        #expect(passive.isEmpty)
    }

    @Test func theRadioRecordsScanResponsesAndPassiveScans() async throws {
        // Given the thermostat, and a scan of each kind on the radio
        let (sim, _) = try Self.world()
        try await sim.run {
            try await sim.radio.startScan(ScanFilter())
            try await sim.clock.sleep(for: .milliseconds(500))
            await sim.radio.stopScan()
            try await sim.radio.startScan(ScanFilter(isActive: false))
            try await sim.clock.sleep(for: .milliseconds(500))
            await sim.radio.stopScan()
        }

        // Then the trace shows the scan response after the advertisement in the active scan only
        let records = sim.trace.records
        let thermostat: DeviceID = "C0:FF:EE:00:00:01"
        // A scan's start is a free-form `radio` note (no typed record): matched on its category and text.
        let passiveStart = try #require(
            records.firstIndex { record in
                guard case .line("radio", let text) = record.event else { return false }
                return text.hasSuffix("duplicates=false passive")
            }, "\(records)")
        let responses = records.indices.filter { index in
            guard case .scanResponseHeard(_, thermostat, let name, _, _) = records[index].event else { return false }
            return name == "Thermostat"
        }
        #expect(!responses.isEmpty)
        #expect(responses.allSatisfy { $0 < passiveStart })
        #expect(
            records[passiveStart...].contains { record in
                guard case .advertisementHeard(_, thermostat, let name, _, _, _) = record.event else { return false }
                return name == "Thermost"
            })
    }

    @Test func aScanResponseOver31BytesIsRefused() {
        // Given a peripheral whose scan response would not fit a legacy PDU
        let sim = Simulation(seed: 1, strict: true)
        let spec = PeripheralSpec(name: "Long", id: "E0:00:00:00:00:09") {
            Advertising {
                LocalName("L")
            } scanResponse: {
                LocalName(String(repeating: "x", count: 30))
            }
        }

        // Then adding it fails, naming the scan response
        #expect {
            try sim.add(spec)
        } throws: { error in
            (error as? AirlinkError)?.code == .invalidSpecification
                && (error as? AirlinkError)?.message.contains("its scan response is 32 bytes") == true
        }
    }
}
