import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkRegistry
import AirlinkSimulation
import AirlinkTestSupport
import Foundation
import Testing

/// The discovered database cached in the registry across connections and processes (Docs/GATTCaching.md): reused when
/// the Database Hash matches, rediscovered when it does not or cannot be checked, notifications restored on the cached
/// handles, Database Out Of Sync retried once.
@Suite struct DatabaseCacheTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// A registry in a new JSON file in `directory`: what a process leaves for the next one.
    static func fileRegistry(in directory: TemporaryDirectory) -> DeviceRegistry {
        DeviceRegistry(repository: JSONFileDeviceRepository(path: directory.file("registry.json")))
    }

    /// One "process": a new simulation of `spec`, a device manager on `registry`, a connection that reads the
    /// thermostat's battery level; returns the value, the layers' events and the ATT requests sent after the
    /// link was ready.
    static func process(
        _ spec: PeripheralSpec, registry: DeviceRegistry, caching: DatabaseCaching = .verified
    ) async throws -> (value: [UInt8], events: [ServicesEvent], requests: [ATTPDU]) {
        let sim = Simulation(seed: 5, strict: true)
        _ = try sim.add(spec)
        let manager = DeviceManager(
            transport: sim.radio, environment: sim.environment, configuration: .init(databaseCaching: caching),
            registry: registry)
        let connection = manager.connection(to: thermostat)
        let value = try await sim.run { () -> [UInt8] in
            try await connection.connect(timeout: .seconds(3))
            let value = try await connection.services.service(.thermostatBatteryService).read(
                .thermostatBatteryLevel)
            await connection.disconnect()
            await manager.waitForRecords()
            return value
        }
        manager.shutdown()
        let records = sim.trace.records
        let requests = records[readyIndex(records)...].pdusSent
        let events = records.layerEvents.compactMap { event -> ServicesEvent? in
            switch event {
            case .services(_, let event) where event.name.hasPrefix("database"): event
            default: nil
            }
        }
        return (value, events, requests)
    }

    /// The index of the first record from which the link was ready: the layers' first `connected` event (0 if none).
    static func readyIndex(_ records: [TraceRecord]) -> Int {
        records.firstIndex { record in
            if case .layer(.event(.connection(_, .connected))) = record.event { true } else { false }
        } ?? 0
    }

    /// The service and characteristic discoveries among `requests` (descriptor lookups are the transport's,
    /// to find a CCCD).
    static func discoveries(_ requests: [ATTPDU]) -> [ATTPDU] {
        requests.filter { pdu in
            switch pdu {
            case .readByGroupTypeRequest, .findByTypeValueRequest: true
            case .readByTypeRequest(_, _, .characteristicDeclaration): true
            default: false
            }
        }
    }

    @Test func aSecondProcessReusesTheCacheWhenTheHashMatches() async throws {
        // Given a process that connected to the thermostat, read its battery level and disconnected
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let registry = Self.fileRegistry(in: directory)
        let first = try await Self.process(.thermostat(), registry: registry)
        let record = try #require(try await registry.record(for: Self.thermostat))

        // When another process, on the same registry file, connects and reads again
        let second = try await Self.process(.thermostat(), registry: registry)

        // Then the first discovered and cached the service with the device's 16-byte hash; the second read the
        // hash in one request and the level at the cached handle, discovering nothing
        #expect(!Self.discoveries(first.requests).isEmpty)
        #expect(record.databaseHash?.count == 16)
        #expect(record.database?.services.map(\.service.uuid) == [.thermostatBatteryService])
        #expect(second.events == [.databaseCacheReused(.hashMatched, services: 1)])
        #expect(Self.discoveries(second.requests) == [])
        #expect(second.requests.first == .readByTypeRequest(start: .min, end: .max, type: .databaseHash))
        #expect(second.requests.count == 2)
        #expect(second.value == first.value)
    }

    @Test func aProcessThatEndsConnectedHasSavedWhatItDiscovered() async throws {
        // Given a process that connects to the thermostat and reads its battery level
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let registry = Self.fileRegistry(in: directory)
        let sim = Simulation(seed: 5, strict: true)
        _ = try sim.add(.thermostat())
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment, registry: registry)
        let connection = manager.connection(to: Self.thermostat)

        // When it ends with the link still up (no disconnection, so no link-down)
        try await sim.run {
            try await connection.connect(timeout: .seconds(3))
            _ = try await connection.services.service(.thermostatBatteryService).read(.thermostatBatteryLevel)
            await manager.waitForRecords()
        }
        manager.shutdown()

        // Then the registry holds the service and characteristic it discovered, under the device's hash, and the
        // next process reuses them
        let record = try #require(try await registry.record(for: Self.thermostat))
        #expect(record.database?.services.map(\.service.uuid) == [.thermostatBatteryService])
        #expect(record.database?.services.first?.characteristics.map(\.uuid) == [.thermostatBatteryLevel])
        #expect(record.databaseHash?.count == 16)
        let next = try await Self.process(.thermostat(), registry: registry)
        #expect(next.events == [.databaseCacheReused(.hashMatched, services: 1)])
    }

    /// One process that reads the battery level's CCCD; returns the ATT requests sent after the link was ready.
    static func descriptorProcess(registry: DeviceRegistry) async throws -> [ATTPDU] {
        let sim = Simulation(seed: 5, strict: true)
        _ = try sim.add(.thermostat())
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment, registry: registry)
        let connection = manager.connection(to: thermostat)
        try await sim.run {
            try await connection.connect(timeout: .seconds(3))
            _ = try await connection.services.service(.thermostatBatteryService).readDescriptor(
                .clientCharacteristicConfiguration, of: .thermostatBatteryLevel)
            await connection.disconnect()
            await manager.waitForRecords()
        }
        manager.shutdown()
        let records = sim.trace.records
        return records[readyIndex(records)...].pdusSent
    }

    @Test func discoveredDescriptorsAreCachedWithTheirCharacteristics() async throws {
        // Given a process that read the battery level's CCCD (discovering its descriptors)
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let registry = Self.fileRegistry(in: directory)
        let first = try await Self.descriptorProcess(registry: registry)
        let record = try #require(try await registry.record(for: Self.thermostat))

        // When another process reads it again
        let second = try await Self.descriptorProcess(registry: registry)

        // Then the registry kept the descriptors by the characteristic's value handle, and the second process read
        // the CCCD at its cached handle: the hash, then the read, no Find Information
        let service = try #require(record.database?.services.first)
        let level = try #require(service.characteristics.first)
        #expect(
            service.descriptors[level.valueHandle]?.contains { $0.uuid == .clientCharacteristicConfiguration } == true)
        #expect(first.contains { $0.opcode == .findInformationRequest })
        #expect(!second.contains { $0.opcode == .findInformationRequest }, "\(second)")
        #expect(second.count == 2, "\(second)")
    }

    @Test func droppingTheCachesOnTheVirtualRadioMakesTheNextProcessDiscover() async throws {
        // Given a process that cached the thermostat's database
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let registry = Self.fileRegistry(in: directory)
        _ = try await Self.process(.thermostat(), registry: registry)

        // When the app drops the caches, in a simulation of its own
        let sim = Simulation(seed: 5, strict: true)
        _ = try sim.add(.thermostat())
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment, registry: registry)
        let dropped = try await sim.run { try await manager.dropDatabaseCaches(of: Self.thermostat) }
        manager.shutdown()
        let next = try await Self.process(.thermostat(), registry: registry)

        // Then the registry's cache and the central's were dropped, no scan is needed, and the next process
        // discovers (no cache: nothing to reuse, nothing reported); the radio never reports its own cache stale
        #expect(dropped == DroppedDatabaseCaches(registry: true, stack: true, mustBeDiscoveredAgain: false))
        // The radio's drop is a free-form `radio` note (no typed record): its text is matched.
        #expect(sim.trace.records.notes(in: "radio").contains { $0.text == "C0:FF:EE:00:00:01 database cache dropped" })
        #expect(!Self.discoveries(next.requests).isEmpty)
        #expect(next.events.isEmpty)
    }

    @Test func aFirmwareUpdateBetweenProcessesIsFoundByTheHash() async throws {
        // Given a cache of the thermostat in the registry
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let registry = Self.fileRegistry(in: directory)
        let first = try await Self.process(.thermostat(), registry: registry)

        // When the thermostat comes back with firmware that puts a Battery service first (every handle moves)
        var updated = PeripheralSpec.thermostat()
        updated.services = GATTCachingLayersTests.movedServices(of: updated)
        let second = try await Self.process(updated, registry: registry)

        // Then the hash differs, the cache is dropped and the level is read at its new handle
        #expect(second.events == [.databaseChanged(.hashChanged)])
        #expect(!Self.discoveries(second.requests).isEmpty)
        #expect(second.value == first.value)
    }

    @Test func withoutAHashTheSafeDefaultRediscoversAndTheOptInTrusts() async throws {
        // Given a thermostat serving Service Changed but no Database Hash, cached once
        var spec = PeripheralSpec.thermostat()
        spec.genericAttribute = [.serviceChanged]
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let registry = Self.fileRegistry(in: directory)
        _ = try await Self.process(spec, registry: registry)

        // When a process with the default setting connects, then one that opted in to trusting the cache
        let safe = try await Self.process(spec, registry: registry)
        let trusting = try await Self.process(spec, registry: registry, caching: .trustWithoutHash)

        // Then the first rediscovers (noHash), the second reuses the handles
        #expect(safe.events == [.databaseChanged(.noHash)])
        #expect(!Self.discoveries(safe.requests).isEmpty)
        #expect(trusting.events == [.databaseCacheReused(.trustedWithoutHash, services: 1)])
        #expect(Self.discoveries(trusting.requests) == [])
        #expect(safe.value == [90] && trusting.value == [90])
    }

    @Test func cachingOffDiscoversEveryTimeAndKeepsNothing() async throws {
        // Given caching off
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let registry = Self.fileRegistry(in: directory)
        _ = try await Self.process(.thermostat(), registry: registry, caching: .off)

        // When a second process connects
        let second = try await Self.process(.thermostat(), registry: registry, caching: .off)

        // Then nothing was cached, no hash read, and discovery ran again
        #expect(try await registry.record(for: Self.thermostat)?.database == nil)
        #expect(second.events == [])
        #expect(
            !second.requests.contains { pdu in
                switch pdu {
                case .readByTypeRequest(_, _, .databaseHash), .readByGroupTypeRequest(_, _, .databaseHash): true
                default: false
                }
            })
        #expect(!Self.discoveries(second.requests).isEmpty)
    }

    /// A strict simulation of the thermostat and a device manager with an in-memory registry (caching verified).
    static func thermostatWithRegistry(seed: UInt64) throws -> (Simulation, SimulatedPeripheral, DeviceManager) {
        let sim = Simulation(seed: seed, strict: true)
        let peripheral = try sim.add(.thermostat())
        let manager = DeviceManager(
            transport: sim.radio, environment: sim.environment,
            registry: DeviceRegistry(repository: InMemoryDeviceRepository()))
        return (sim, peripheral, manager)
    }

    @Test func aReconnectionReusesTheCacheAndRestoresNotificationsOnItsHandles() async throws {
        // Given a connected thermostat with its battery level observed, caching verified
        let (sim, peripheral, manager) = try Self.thermostatWithRegistry(seed: 9)
        let connection = manager.connection(
            to: Self.thermostat, reconnection: .linear(wait: .seconds(1), attempts: 3, timeout: .seconds(3)))
        let service = connection.services.service(.thermostatBatteryService)
        let values = Recorder.recording(service.values(of: .thermostatBatteryLevel), in: sim.environment)
        let events = Recorder.recording(manager.events(for: Self.thermostat), in: sim.environment)
        try await sim.run {
            try await connection.connect(timeout: .seconds(3))
            _ = try await service.enableNotifications(for: .thermostatBatteryLevel)
        }

        // When the link drops and comes back, and the level changes
        peripheral.dropLink(reason: .supervisionTimeout)
        try await sim.run(for: .seconds(3))
        try peripheral.setValue(BatteryLevel(70), of: .thermostatBatteryLevel)
        try await sim.run(for: .milliseconds(500))

        // Then the cache was reused: the hash read, the CCCD written, nothing discovered; the value arrived
        let records = sim.trace.records
        let reconnected = try #require(
            records.firstIndex { record in
                if case .layer(.event(.connection(_, .reconnected))) = record.event { true } else { false }
            })
        #expect(Self.discoveries(records[reconnected...].pdusSent) == [])
        #expect(events.values.map(\.name).contains("databaseCacheReused"))
        #expect(events.values.map(\.name).contains("notificationsRestored"))
        #expect(values.values.map(\.bytes) == [[70]])
    }

    @Test func databaseOutOfSyncIsRetriedOnceAfterRediscovering() async throws {
        // Given a connected thermostat with robust caching enabled, caching verified, its level read once
        let (sim, peripheral, manager) = try Self.thermostatWithRegistry(seed: 11)
        let connection = manager.connection(to: Self.thermostat)
        let service = connection.services.service(.thermostatBatteryService)
        let events = Recorder.recording(manager.events(for: Self.thermostat), in: sim.environment)
        try await sim.run {
            try await connection.connect(timeout: .seconds(3))
            try await connection.services.service(.genericAttribute).write([0x01], to: .clientSupportedFeatures)
            _ = try await service.read(.thermostatBatteryLevel)
        }

        // When firmware moves every handle telling no one, its hash stale, and the app reads
        peripheral.updateFirmware(
            FirmwareUpdate(
                services: GATTCachingLayersTests.movedServices(of: peripheral.spec), announcesServiceChanged: false,
                hash: .stale))
        try peripheral.setValue(BatteryLevel(50), of: .thermostatBatteryLevel)
        let read = try await sim.run { try await service.read(.thermostatBatteryLevel) }

        // Then the read succeeds at the new handle, after one databaseChanged(outOfSync)
        #expect(read == [50])
        #expect(events.values.filter { $0.name == "databaseChanged" }.map(\.description).count == 1)
        #expect(events.values.contains { $0.description.hasSuffix("databaseChanged outOfSync") })
    }
}

/// The decision a link makes about a cached database as it comes up, without a radio.
@Suite struct DatabaseCacheDecisionTests {
    @Test(
        arguments: [
            (true, [1], [1], DatabaseCaching.verified, false, DatabaseCacheDecision.reuse(.hashMatched)),
            (true, [1], [2], .verified, false, .rediscover(.hashChanged)),
            (true, nil, [2], .verified, false, .rediscover(.hashChanged)),
            (true, nil, nil, .verified, false, .rediscover(.noHash)),
            (true, nil, nil, .trustWithoutHash, false, .reuse(.trustedWithoutHash)),
            (true, [1], [1], .verified, true, .rediscover(nil)),
            (false, nil, [1], .verified, false, .rediscover(nil)),
            (true, [1], [1], .off, false, .rediscover(nil)),
        ] as [(Bool, [UInt8]?, [UInt8]?, DatabaseCaching, Bool, DatabaseCacheDecision)])
    func decides(
        _ cached: Bool, _ cachedHash: [UInt8]?, _ served: [UInt8]?, _ caching: DatabaseCaching, _ changed: Bool,
        _ expected: DatabaseCacheDecision
    ) {
        // Given a cache and what the device serves; When the link decides; Then it decides as expected
        #expect(
            DatabaseCacheDecision.decide(
                cached: cached, cachedHash: cachedHash, servedHash: served, caching: caching, changedMeanwhile: changed)
                == expected)
    }
}
