import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkRegistry
import AirlinkSimulation
import AirlinkTestSupport
import Testing

/// A database that changed during a link is cached without a Database Hash (Docs/GATTCaching.md, "What Airlink
/// trusts"): the hash read as the link came up described the layout before the change, so a device that later
/// serves that hash again is rediscovered, not served the layout cached in between.
@Suite struct ServiceChangedCacheTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    @Test func aDatabaseChangedAndChangedBackIsRediscoveredNotServedFromTheMiddleLayout() async throws {
        // Given the thermostat connected, its battery level read (its database cached under the hash it serves)
        let sim = Simulation(seed: 13, strict: true)
        let peripheral = try sim.add(.thermostat())
        let registry = DeviceRegistry(repository: InMemoryDeviceRepository())
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment, registry: registry)
        let connection = manager.connection(to: Self.thermostat)
        let battery = connection.services.service(.thermostatBatteryService)
        let events = Recorder.recording(manager.events(for: Self.thermostat), in: sim.environment)
        let firstLayout = peripheral.spec.services
        try await sim.run {
            try await connection.connect(timeout: .seconds(3))
            _ = try await battery.read(.thermostatBatteryLevel)
            await manager.waitForRecords()
        }
        let first = try #require(try await registry.record(for: Self.thermostat))

        // When new firmware moves every handle and announces it on Service Changed while the link is up, the app
        // reads the level at its new handle and disconnects
        peripheral.updateFirmware(FirmwareUpdate(services: GATTCachingLayersTests.movedServices(of: peripheral.spec)))
        try await sim.run(for: .milliseconds(500))
        try await sim.run {
            _ = try await battery.read(.thermostatBatteryLevel)
            await connection.disconnect()
            await manager.waitForRecords()
        }
        let middle = try #require(try await registry.record(for: Self.thermostat))

        // And, while the link is down, the firmware goes back to the first layout (serving its hash again), and
        // the app connects and reads the level
        peripheral.updateFirmware(FirmwareUpdate(services: firstLayout))
        try peripheral.setValue(BatteryLevel(33), of: .thermostatBatteryLevel)
        let read = try await sim.run { () -> Result<[UInt8], AirlinkError> in
            try await connection.connect(timeout: .seconds(3))
            return await caught { () throws(AirlinkError) in try await battery.read(.thermostatBatteryLevel) }
        }
        manager.shutdown()

        // Then the first link cached under a hash, the middle layout was cached with none, and the next link
        // rediscovered (the hash it read matched nothing kept) and read the level at its first handle
        #expect(first.databaseHash?.count == 16)
        #expect(middle.database != nil && middle.database != first.database)
        #expect(middle.databaseHash == nil, "the middle layout was kept under the hash of the layout before it")
        #expect(try read.get() == [33])
        let decisions = events.values.compactMap { event -> ServicesEvent? in
            guard case .services(_, let event) = event, event.name.hasPrefix("database") else { return nil }
            return event
        }
        #expect(decisions.last == .databaseChanged(.hashChanged), "\(decisions)")
    }
}
