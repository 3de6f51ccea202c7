import AirlinkCore
import AirlinkRegistry
import AirlinkTestSupport
import Foundation
import GRDB
import Testing

@testable import AirlinkRegistrySQLite

/// The bond in a record (Docs/Security.md): stored and read back by every repository, dropped when the device lost it
/// and with the record by `forget`, refused naming the field when damaged, absent in stores written before it.
@Suite struct BondRecordTests {
    static let bond = BondRecord(level: .authenticatedSecureConnections, keySize: 16, bonded: Fixtures.newYear)

    @Test(arguments: RepositoryKind.all)
    func aBondReadsBackAndIsDroppedWhenLost(kind: RepositoryKind) async throws {
        // Given a registry on each repository, and a device whose bond was recorded
        let directory = TemporaryDirectory()
        let registry = DeviceRegistry(repository: try kind.open(in: directory))
        try await registry.recordConnection(device: Fixtures.id(1), name: "Vault", at: Fixtures.newYear)
        try await registry.recordBond(Self.bond, of: Fixtures.id(1))

        // When the store is opened again and read, then the bond alone is dropped
        let reopened = DeviceRegistry(repository: try kind.open(in: directory))
        let stored = try #require(try await reopened.record(for: Fixtures.id(1)))
        try await reopened.forgetBond(of: Fixtures.id(1))
        let after = try #require(try await reopened.record(for: Fixtures.id(1)))

        // Then the bond came back as saved, and dropping it kept the device
        #expect(stored.bond == Self.bond)
        #expect(after.bond == nil && after.name == "Vault")
    }

    @Test func aBondOfAnUnknownDeviceMakesNoRecord() async throws {
        let registry = DeviceRegistry(repository: InMemoryDeviceRepository())
        #expect(try await registry.recordBond(Self.bond, of: Fixtures.id(1)) == nil)
        #expect(try await registry.knownDevices().isEmpty)
    }

    @Test func aRegistryFileWrittenBeforeBondsStillLoads() async throws {
        // Given a registry file without any bond field
        let directory = TemporaryDirectory()
        let path = directory.file("devices.json")
        let text =
            #"{"format": "airlink-device-registry", "schemaVersion": 1, "devices": [{"id": "C0:FF:EE:00:00:01", "#
            + #""services": ["180F"], "firstConnected": 1767225600, "lastConnected": 1767225600, "#
            + #""connectionCount": 2}]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))

        // When it is read, Then the record loads without a bond
        let records = try await JSONFileDeviceRepository(path: path).all()
        #expect(records.count == 1 && records.first?.bond == nil)
    }

    @Test func aBondWithALevelBelowEncryptionIsRefusedNamingTheField() async throws {
        // Given a registry file whose bond says level 1 (no security)
        let directory = TemporaryDirectory()
        let path = directory.file("devices.json")
        let text =
            #"{"format": "airlink-device-registry", "schemaVersion": 1, "devices": [{"id": "C0:FF:EE:00:00:01", "#
            + #""services": [], "firstConnected": 1767225600, "lastConnected": 1767225600, "#
            + #""connectionCount": 2, "bond": {"level": 1, "keySize": 16, "bonded": 1767225600}}]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))

        // When it is read, Then the error is typed and names the field
        let error = await #expect(throws: AirlinkError.self) { try await JSONFileDeviceRepository(path: path).all() }
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("bond") == true, "\(String(describing: error))")
    }

    @Test func aVersion2SQLiteRegistryMigratesAndKeepsItsRows() async throws {
        // Given an SQLite registry made by the version 1 and 2 schemas, holding a row
        let directory = TemporaryDirectory()
        let path = directory.file("devices.sqlite")
        try OldSchemas.write(at: path, version: 2)

        // When this Airlink opens it, reads the row and records a bond for it
        let repository = try SQLiteDeviceRepository(path: path)
        let old = try #require(try await repository.record(for: Fixtures.id(1)))
        try await DeviceRegistry(repository: repository).recordBond(Self.bond, of: Fixtures.id(1))

        // Then the old row reads without a bond, and the migrated table keeps the new one
        #expect(old.name == "Old" && old.connectionCount == 3 && old.bond == nil)
        #expect(try await repository.record(for: Fixtures.id(1))?.bond == Self.bond)
    }
}
