import AirlinkCore
import AirlinkRegistry
import AirlinkTestSupport
import Foundation
import GRDB
import Testing

@testable import AirlinkRegistrySQLite

/// The cached GATT database in a record (Docs/GATTCaching.md): stored and read back by every repository, dropped with
/// a new hash or on request, refused naming the field when damaged, absent in stores written before it.
@Suite struct CachedDatabaseRecordTests {
    /// A battery service at 0x000E–0x0011 with its level and the level's CCCD, and an incomplete second service.
    static let database = CachedGATTDatabase(
        services: [
            .init(
                service: GATTService(uuid: .battery, handles: ATTHandle(0x000E)...ATTHandle(0x0011)),
                characteristics: [
                    GATTCharacteristic(
                        uuid: .batteryLevel, declarationHandle: ATTHandle(0x000F), valueHandle: ATTHandle(0x0010),
                        properties: [.read, .notify])
                ], complete: true,
                descriptors: [
                    ATTHandle(0x0010): [
                        GATTDescriptor(uuid: .clientCharacteristicConfiguration, handle: ATTHandle(0x0011))
                    ]
                ]),
            .init(service: GATTService(uuid: .deviceInformation, handles: ATTHandle(0x0012)...ATTHandle(0x0020))),
        ])

    @Test(arguments: RepositoryKind.all)
    func cachedDatabaseReadsBackAndCanBeForgotten(kind: RepositoryKind) async throws {
        // Given a registry on each repository, and a device whose database was cached with its hash
        let directory = TemporaryDirectory()
        let registry = DeviceRegistry(repository: try kind.open(in: directory))
        try await registry.recordConnection(device: Fixtures.id(1), name: "Sensor", at: Fixtures.newYear)
        try await registry.recordDatabase(Self.database, hash: Array(0..<16), of: Fixtures.id(1), at: Fixtures.newYear)

        // When the store is opened again and read, then the cache alone is forgotten
        let reopened = DeviceRegistry(repository: try kind.open(in: directory))
        let stored = try #require(try await reopened.record(for: Fixtures.id(1)))
        let forgotten = try await reopened.forgetDatabase(of: Fixtures.id(1))
        let after = try #require(try await reopened.record(for: Fixtures.id(1)))

        // Then the database and hash came back as saved; forgetting kept the device and its count
        #expect(stored.database == Self.database)
        #expect(stored.databaseHash == Array(0..<16))
        #expect(forgotten)
        #expect(after.database == nil && after.databaseHash == nil)
        #expect(after.name == "Sensor" && after.connectionCount == 1)
        #expect(try await reopened.forgetDatabase(of: Fixtures.id(1)) == false)
    }

    @Test func aCacheOfAnUnknownOrForgottenDeviceMakesNoRecord() async throws {
        // Given a registry that never knew device 1
        let registry = DeviceRegistry(repository: InMemoryDeviceRepository())

        // When a database is cached for it (a link went down after the app forgot it)
        let saved = try await registry.recordDatabase(
            Self.database, hash: [1], of: Fixtures.id(1), at: Fixtures.newYear)

        // Then nothing is saved: a cache alone does not make a device known
        #expect(saved == nil)
        #expect(try await registry.knownDevices().isEmpty)
    }

    @Test func aNewHashDropsTheCachedDatabase() throws {
        // Given a record with a cached database under hash AA
        let record = ConnectionRecord(
            id: Fixtures.id(1), firstConnected: Fixtures.newYear, databaseHash: [0xAA], database: Self.database)

        // When connections report the same hash, then another
        let same = record.recording(.init(databaseHash: [0xAA], at: Fixtures.newYear))
        let changed = record.recording(.init(databaseHash: [0xBB], at: Fixtures.newYear))

        // Then the same hash keeps the cache, another drops it
        #expect(same.database == Self.database)
        #expect(changed.database == nil)
    }

    @Test func aRegistryFileWrittenBeforeTheCacheStillLoads() async throws {
        // Given a registry file without any database field
        let directory = TemporaryDirectory()
        let path = directory.file("devices.json")
        let text =
            #"{"format": "airlink-device-registry", "schemaVersion": 1, "devices": [{"id": "C0:FF:EE:00:00:01", "#
            + #""services": ["180F"], "firstConnected": 1767225600, "lastConnected": 1767225600, "#
            + #""connectionCount": 2, "#
            + #""databaseHash": "00112233445566778899aabbccddeeff"}]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))

        // When it is read
        let records = try await JSONFileDeviceRepository(path: path).all()

        // Then the record loads, with no cached database
        #expect(records.count == 1)
        #expect(records.first?.database == nil)
        #expect(records.first?.databaseHash?.count == 16)
    }

    @Test func aVersion1SQLiteRegistryMigratesAndKeepsItsRows() async throws {
        // Given an SQLite registry made by the version 1 schema alone, holding a row
        let directory = TemporaryDirectory()
        let path = directory.file("devices.sqlite")
        try OldSchemas.write(at: path, version: 1)

        // When this Airlink opens it, reads the row and caches a database for it
        let repository = try SQLiteDeviceRepository(path: path)
        let old = try #require(try await repository.record(for: Fixtures.id(1)))
        try await DeviceRegistry(repository: repository).recordDatabase(
            Self.database, hash: [1], of: Fixtures.id(1), at: Fixtures.newYear)

        // Then the old row reads without a cache, and the migrated table keeps the new one
        #expect(old.name == "Old" && old.connectionCount == 3 && old.database == nil)
        #expect(try await repository.record(for: Fixtures.id(1))?.database == Self.database)
    }

    @Test func aDamagedCachedDatabaseInSQLiteIsReportedNamingTheField() async throws {
        // Given an SQLite registry whose database column was edited into a service that ends before it starts
        let directory = TemporaryDirectory()
        let path = directory.file("devices.sqlite")
        let repository = try SQLiteDeviceRepository(path: path)
        try await repository.save(Fixtures.record(1))
        try await repository.pool.write { db in
            try db.execute(
                sql:
                    "UPDATE device SET database = "
                    + #"'{"services":[{"uuid":"180F","start":9,"end":2,"characteristics":[]}]}'"#
            )
        }

        // When the record is read
        let error = await #expect(throws: AirlinkError.self) { try await repository.all() }

        // Then the error is typed and names the field
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("database.services[0].end") == true, "\(String(describing: error))")
    }

    @Test func anInvalidCachedDatabaseIsRefusedBeforeSaving() async throws {
        // Given a database whose characteristic lies outside its service
        let bad = CachedGATTDatabase(services: [
            .init(
                service: GATTService(uuid: .battery, handles: ATTHandle(1)...ATTHandle(3)),
                characteristics: [
                    GATTCharacteristic(
                        uuid: .batteryLevel, declarationHandle: ATTHandle(4), valueHandle: ATTHandle(5), properties: [])
                ])
        ])

        // When it is recorded
        let registry = DeviceRegistry(repository: InMemoryDeviceRepository())
        let error = await #expect(throws: AirlinkError.self) {
            try await registry.recordDatabase(bad, hash: nil, of: Fixtures.id(1), at: Fixtures.newYear)
        }

        // Then it is refused naming the field
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("database.services[0].characteristics[0]") == true)
    }

    @Test func aDescriptorOutsideItsCharacteristicIsRefused() throws {
        // Given the battery service with its level's descriptor put before the level's value
        var bad = Self.database
        bad.services[0].descriptors = [
            ATTHandle(0x0010): [GATTDescriptor(uuid: .clientCharacteristicConfiguration, handle: ATTHandle(0x000F))]
        ]

        // When it is checked, and read back from its JSON
        let error = #expect(throws: AirlinkError.self) { try bad.validate() }
        let text = Self.database.jsonText

        // Then the descriptor is named; the valid one's descriptors survive the JSON
        #expect(error?.message.contains("database.services[0].characteristics[0].descriptors") == true)
        #expect(text.contains(#""descriptors":[{"handle":17,"uuid":"2902"}]"#), "\(text)")
        #expect(try CachedGATTDatabase(jsonText: text) == Self.database)
    }
}
