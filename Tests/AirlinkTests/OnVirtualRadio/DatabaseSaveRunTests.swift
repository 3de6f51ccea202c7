import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkRegistry
import AirlinkSimulation
import AirlinkTestSupport
import Testing

/// The cached database is saved once a run of operations ends, not after each of them: a save rewrites the device's
/// whole database, so one per operation made discovering a database of n services cost n² (Docs/GATTCaching.md).
@Suite struct DatabaseSaveRunTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// The `database` saves of the thermostat's record the trace shows, in order.
    static func databaseSaves(_ records: [TraceRecord]) -> Int {
        records.count { record in
            if case .layer(.registrySaved(thermostat, .database, _, _)) = record.event { true } else { false }
        }
    }

    @Test func aRunOfDiscoveriesSavesTheDatabaseOnceAndAnOperationAloneSavesAtOnce() async throws {
        // Given a connected thermostat whose app remembers it in a registry
        let directory = TemporaryDirectory()
        let sim = Simulation(seed: 5, strict: true)
        _ = try sim.add(.thermostat())
        let registry = DeviceRegistry(repository: JSONFileDeviceRepository(path: directory.file("registry.json")))
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment, registry: registry)
        let connection = manager.connection(to: Self.thermostat)
        let (afterRun, afterOne, services) = try await sim.run { () async throws -> (Int, Int, Int) in
            try await connection.connect(timeout: .seconds(3))
            // When the app discovers every service, then each one's characteristics, one operation after another
            let managers = try await connection.services.discover()
            for service in managers { _ = try await service.discoverCharacteristics() }
            try await sim.clock.sleep(for: .seconds(1))
            let afterRun = Self.databaseSaves(sim.trace.records)
            // And later reads one value, which discovers the descriptors of one characteristic
            _ = try await connection.services.service(.thermostatTemperatureService).discoverDescriptors(
                of: .thermostatTemperature)
            try await sim.clock.sleep(for: .seconds(1))
            let afterOne = Self.databaseSaves(sim.trace.records)
            await connection.disconnect()
            await manager.waitForRecords()
            return (afterRun, afterOne, managers.count)
        }
        manager.shutdown()

        // Then the run of discoveries was saved once, whole; the lone operation after it once more, at once
        #expect(services >= 3)
        #expect(afterRun == 1, "the run of \(services + 1) discoveries saved the database \(afterRun) times")
        #expect(afterOne == 2)
        let record = try #require(await registry.record(for: Self.thermostat))
        let cached = try #require(record.database)
        #expect(cached.services.count == services)
        #expect(cached.services.allSatisfy { $0.complete })
    }
}
