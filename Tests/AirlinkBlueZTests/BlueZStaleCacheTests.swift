import Airlink
import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkRegistry
import Testing

@testable import AirlinkBlueZ

/// BlueZ's own GATT cache gone stale (Docs/GATTCaching.md): a device whose firmware changed while BlueZ keeps serving
/// the objects it had. The layers see it through the Database Hash read through BlueZ, report
/// `.stackCacheStale`, and `dropDatabaseCaches(of:)` removes the device from BlueZ (`Adapter1.RemoveDevice`) so that
/// a scan and a connection discover the new database.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZStaleCacheTests {
    static let sensor: DeviceID = "C0:FF:EE:00:00:5C"
    static let sensorPath = FakeBlueZ.devicePath("C0:FF:EE:00:00:5C")
    static let service = BluetoothUUID(0xFFF0)
    static let reading = BluetoothUUID(0xFFF1)

    /// A sensor with a Generic Attribute service serving Database Hash `hash` and a service whose reading is
    /// `reading`; with `inserted`, a characteristic before the reading moves it two handles on.
    static func services(hash: String, reading: String, inserted: Bool) -> String {
        let extra = inserted ? #"{"uuid": "FFF2", "flags": ["read"], "value": "ee"},"# : ""
        return #"""
            [{"uuid": "1801", "characteristics": [{"uuid": "2B2A", "flags": ["read"], "value": "\#(hash)"}]},
             {"uuid": "FFF0", "characteristics": [\#(extra)
              {"uuid": "FFF1", "flags": ["read"], "value": "\#(reading)"}]}]
            """#
    }

    static let oldHash = String(repeating: "11", count: 16)
    static let newHash = String(repeating: "22", count: 16)

    static func peripheral() -> String {
        #"""
        {"name": "Sensor", "address": "C0:FF:EE:00:00:5C", "rssi": -50,
         "services": \#(services(hash: oldHash, reading: "01", inserted: false))}
        """#
    }

    /// A device manager on the fake BlueZ with a registry, the sensor found by a scan.
    static func manager(_ fake: FakeBlueZ) async throws -> DeviceManager {
        let manager = DeviceManager(
            transport: try await fake.transport(), environment: .live(),
            registry: DeviceRegistry(repository: InMemoryDeviceRepository()))
        try await scan(manager)
        return manager
    }

    static func scan(_ manager: DeviceManager) async throws {
        let discovery = try await manager.discover(timeout: .milliseconds(300))
        _ = await discovery.waitUntilStopped()
    }

    /// Connects, reads the reading, disconnects; returns the value and the layers' database events.
    static func readOnce(_ manager: DeviceManager) async throws -> (value: [UInt8], events: [ServicesEvent]) {
        let events = manager.events(for: sensor)
        let connection = manager.connection(to: sensor)
        try await connection.connect(timeout: .seconds(5))
        let value = try await connection.services.service(service).read(reading)
        await connection.disconnect()
        await manager.waitForRecords()
        // The check runs in the link's first turn, before the read: its events come before the disconnection's.
        let seen = await valueWithin(.seconds(5)) { () async -> [ServicesEvent]? in
            var seen: [ServicesEvent] = []
            for await event in events {
                switch event {
                case .connection(_, .terminated): return seen
                case .services(_, let services)
                where services.name.hasPrefix("database") || services.name == "stackCacheStale":
                    seen.append(services)
                default: break
                }
            }
            return seen
        }
        return (value, try #require(seen))
    }

    @Test func aStaleBlueZCacheIsDetectedAndDroppedByRemovingTheDevice() async throws {
        // Given the sensor read once through the layers, its database cached in the registry under the old hash
        let fake = try await FakeBlueZ.fresh()
        try await fake.addPeripheral(json: Self.peripheral())
        let manager = try await Self.manager(fake)
        defer { manager.shutdown() }
        #expect(try await Self.readOnce(manager).value == [0x01])

        // When its firmware moves the reading and changes the hash, and BlueZ keeps serving its old objects
        try await fake.staleCache(
            Self.sensorPath, json: Self.services(hash: Self.newHash, reading: "02", inserted: true))
        let stale = try await Self.readOnce(manager)

        // Then the layers rediscover (the hash changed), see BlueZ serve exactly the cached database, and say
        // BlueZ's cache is stale: what BlueZ serves is still the old reading
        #expect(stale.events == [.databaseChanged(.hashChanged), .stackCacheStale(.hashMismatch)])
        #expect(stale.value == [0x01])

        // When the app drops the caches, scans and reads again
        let dropped = try await manager.dropDatabaseCaches(of: Self.sensor, timeout: .seconds(5))
        #expect(dropped == DroppedDatabaseCaches(registry: true, stack: true, mustBeDiscoveredAgain: true))
        let removals = try await fake.callLog().filter { $0["method"] as? String == "RemoveDevice" }
        #expect(removals.count == 1)
        try await Self.scan(manager)
        let fresh = try await Self.readOnce(manager)

        // Then BlueZ resolved the new database: the moved reading reads the new value, nothing is stale
        #expect(fresh.value == [0x02])
        #expect(fresh.events.isEmpty)
    }

    @Test func aRemoveDeviceThatNeverAnswersFailsAtTheDeadline() async throws {
        // Given the sensor cached in the registry, and a BlueZ whose RemoveDevice never answers
        let fake = try await FakeBlueZ.fresh()
        try await fake.addPeripheral(json: Self.peripheral())
        let manager = try await Self.manager(fake)
        defer { manager.shutdown() }
        _ = try await Self.readOnce(manager)
        try await fake.hangNext("RemoveDevice", on: "/org/bluez/hci0")

        // When the app drops the caches with a deadline of half a second
        let clock = ContinuousClock()
        let started = clock.now
        let error = await #expect(throws: AirlinkError.self) {
            _ = try await manager.dropDatabaseCaches(of: Self.sensor, timeout: .milliseconds(500))
        }

        // Then it fails with a timeout at the deadline, the registry's cache dropped already
        #expect(error?.code == .timeout)
        #expect(clock.now - started < .seconds(3))
        try await fake.waitForCall("RemoveDevice")
        #expect(try await manager.registry?.record(for: Self.sensor)?.database == nil)
    }
}
