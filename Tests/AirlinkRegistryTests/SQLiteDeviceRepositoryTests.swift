import AirlinkCore
import AirlinkRegistry
import AirlinkTestSupport
import Foundation
import GRDB
import Synchronization
import Testing

@testable import AirlinkRegistrySQLite

@Suite struct SQLiteDeviceRepositoryTests {
    @Test func databaseOfANewerSchemaIsRefusedAndKept() async throws {
        // Given a database a newer Airlink migrated: it ran a migration this one does not know
        let directory = TemporaryDirectory()
        let path = directory.file("devices.sqlite")
        try await SQLiteDeviceRepository(path: path).save(Fixtures.record(1))
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v2-device-bonds')")
        }
        try queue.close()

        // When it is opened
        let error = #expect(throws: AirlinkError.self) { try SQLiteDeviceRepository(path: path) }

        // Then it is refused, naming the unknown migration and what to do, and its data is untouched
        #expect(error?.code == .unsupportedStoreVersion)
        #expect(error?.context == path)
        #expect(error?.message.contains("v2-device-bonds") == true)
        #expect(error?.message.contains("upgrade Airlink") == true)
        let count = try await DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM device")
        }
        #expect(count == 1)
    }

    @Test func fileThatIsNotADatabaseIsMovedAsideAndReported() async throws {
        // Given a registry path holding something that is not an SQLite database
        let directory = TemporaryDirectory()
        let path = directory.file("devices.sqlite")
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: URL(fileURLWithPath: path))

        // When it is opened
        let error = #expect(throws: AirlinkError.self) { try SQLiteDeviceRepository(path: path) }

        // Then the error names the file and where it went, the file is moved whole, and a new registry opens
        #expect(error?.code == .corruptStore)
        #expect(error?.context == path)
        #expect(error?.message.contains("moved to \(path).corrupt-1") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".corrupt-1")) == garbage)
        let repository = try SQLiteDeviceRepository(path: path)
        #expect(try await repository.all().isEmpty)
    }

    @Test func rowWithAnInvalidIDIsReportedByName() async throws {
        // Given a database where a row's id was edited by hand into something that is not a device id
        let directory = TemporaryDirectory()
        let path = directory.file("devices.sqlite")
        let repository = try SQLiteDeviceRepository(path: path)
        try await repository.save(Fixtures.record(1))
        try await repository.pool.write { db in
            try db.execute(sql: "UPDATE device SET id = 'C0:FF:EE:00:00:ZZ'")
        }

        // When the registry is listed
        let error = await #expect(throws: AirlinkError.self) { try await repository.all() }

        // Then the error names the row and the database
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains("C0:FF:EE:00:00:ZZ") == true)
        #expect(error?.context == path)
    }

    @Test(arguments: [
        ("lastConnected = 1e308", "lastConnected 1e+308 is not a time between 1970 and 9999"),
        ("firstConnected = -5", "firstConnected -5.0"),
        ("connectionCount = 1152921504606846976", "connectionCount 1152921504606846976 is outside"),
        ("firstConnected = lastConnected + 10", "is after lastConnected"),
    ])
    func rowWithADamagedFieldIsReportedNamingTheField(assignment: String, fragment: String) async throws {
        // Given a database where another program wrote a damaged value into a row
        let directory = TemporaryDirectory()
        let repository = try SQLiteDeviceRepository(path: directory.file("devices.sqlite"))
        try await repository.save(Fixtures.record(1))
        try await repository.pool.write { db in try db.execute(sql: "UPDATE device SET \(assignment)") }

        // When the registry is read
        let error = await #expect(throws: AirlinkError.self) { try await repository.all() }

        // Then the row is reported as corrupt, naming the field, and left in place
        #expect(error?.code == .corruptStore)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
        #expect(try await repository.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM device") } == 1)
    }

    @Test func repositoriesOpenedAtOnceOnANewDatabaseAllOpen() throws {
        // Given a path where no database exists yet, tried ten times
        for round in 1...10 {
            let directory = TemporaryDirectory()
            let path = directory.file("devices.sqlite")

            // When eight repositories open it at the same moment, as eight processes would
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do { _ = try SQLiteDeviceRepository(path: path) } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }

            // Then every one opened: the one that migrated second found the work done, not a conflict
            #expect(failures.withLock { $0 } == [], "round \(round)")
        }
    }

    @Test func lookupsUseTheIndexes() async throws {
        // Given a registry database
        let directory = TemporaryDirectory()
        let repository = try SQLiteDeviceRepository(path: directory.file("devices.sqlite"))

        // When SQLite plans the lookups by id and by last connection
        func plan(_ sql: String) async throws -> String {
            try await repository.pool.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }.joined(
                    separator: "; ")
            }
        }
        let byID = try await plan("SELECT * FROM device WHERE id = 'C0:FF:EE:00:00:01'")
        let last = try await plan("SELECT * FROM device ORDER BY lastConnected DESC, id LIMIT 1")

        // Then both search an index, and neither sorts in a temporary tree
        #expect(byID.contains("USING PRIMARY KEY (id=?)"), "\(byID)")
        #expect(last.contains("USING INDEX device_by_last_connection"), "\(last)")
        #expect(!last.contains("TEMP B-TREE"), "\(last)")
    }

    @Test func databaseUsesWriteAheadLoggingAndFullSync() async throws {
        // Given a registry database
        let directory = TemporaryDirectory()
        let repository = try SQLiteDeviceRepository(path: directory.file("devices.sqlite"))

        // Then readers run beside the writer (WAL) and each commit is flushed to the disk (FULL = 2)
        let (mode, synchronous) = try await repository.pool.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(mode == "wal")
        #expect(synchronous == 2)
    }

    @Test func defaultDatabaseIsInTheUsersDataDirectory() throws {
        // Given a data directory
        let directory = TemporaryDirectory()

        // When the default repository is opened there
        let repository = try SQLiteDeviceRepository(environment: ["XDG_DATA_HOME": directory.path])

        // Then its file is airlink/devices.sqlite inside it
        #expect(repository.path == directory.path + "/airlink/devices.sqlite")
        #expect(FileManager.default.fileExists(atPath: repository.path))
    }
}
