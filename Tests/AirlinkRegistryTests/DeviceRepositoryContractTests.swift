import AirlinkCore
import AirlinkRegistry
import AirlinkTestSupport
import Testing

/// The contract every ``DeviceRepository`` keeps, run on each repository Airlink ships.
@Suite struct DeviceRepositoryContractTests {
    @Test(arguments: RepositoryKind.all)
    func newRepositoryIsEmpty(kind: RepositoryKind) async throws {
        // Given a repository on a file that does not exist yet
        let directory = TemporaryDirectory()
        let repository = try kind.open(in: directory)

        // Then it knows no device
        #expect(try await repository.all().isEmpty)
        #expect(try await repository.lastConnected() == nil)
        #expect(try await repository.record(for: Fixtures.id(1)) == nil)
        #expect(try await repository.remove(Fixtures.id(1)) == false)
    }

    @Test(arguments: RepositoryKind.all)
    func savedRecordReadsBackUnchanged(kind: RepositoryKind) async throws {
        // Given a record with every field set, and a record with none of the optional ones
        let directory = TemporaryDirectory()
        let repository = try kind.open(in: directory)
        let bare = ConnectionRecord(id: try DeviceID(opaque: "6F1A0C2E-0D7E-4E7A"), firstConnected: .epoch)

        // When both are saved
        try await repository.save(Fixtures.rich)
        try await repository.save(bare)

        // Then each reads back equal, in this repository and in a new one on the same file
        #expect(try await repository.record(for: Fixtures.rich.id) == Fixtures.rich)
        #expect(try await repository.record(for: bare.id) == bare)
        let reopened = try kind.open(in: directory)
        #expect(try await reopened.record(for: Fixtures.rich.id) == Fixtures.rich)
        #expect(try await reopened.record(for: bare.id) == bare)
        #expect(try await reopened.record(for: "C0:FF:EE:00:00:01") == nil)  // the public twin is another device
    }

    @Test(arguments: RepositoryKind.all)
    func saveReplacesTheRecordOfTheSameDevice(kind: RepositoryKind) async throws {
        // Given a saved record
        let directory = TemporaryDirectory()
        let repository = try kind.open(in: directory)
        try await repository.save(Fixtures.record(1))

        // When the same device is saved again with other values
        var changed = Fixtures.record(1, count: 7)
        changed.name = nil
        changed.databaseHash = nil
        try await repository.save(changed)

        // Then one record remains, the second
        #expect(try await repository.all() == [changed])
    }

    @Test(arguments: RepositoryKind.all)
    func allListsTheLastConnectedFirstThenByID(kind: RepositoryKind) async throws {
        // Given devices connected at 10 s, 30 s, 30 s and 20 s, saved out of order
        let directory = TemporaryDirectory()
        let repository = try kind.open(in: directory)
        let times: [(DeviceID, Int64)] = [
            ("C0:FF:EE:00:00:0B", 30), ("C0:FF:EE:00:00:0A", 10), ("id:zeta", 20), ("C0:FF:EE:00:00:03/random", 30),
        ]
        for (id, seconds) in times {
            try await repository.save(
                ConnectionRecord(
                    id: id, firstConnected: .epoch, lastConnected: Fixtures.newYear.advanced(by: .seconds(seconds))))
        }

        // Then the two at 30 s come first, ordered by their written ids, then 20 s, then 10 s
        let order = try await repository.all().map(\.id.description)
        #expect(order == ["C0:FF:EE:00:00:03/random", "C0:FF:EE:00:00:0B", "id:zeta", "C0:FF:EE:00:00:0A"])
        #expect(try await repository.lastConnected()?.id == "C0:FF:EE:00:00:03/random")
    }

    @Test(arguments: RepositoryKind.all)
    func removeForgetsOneDeviceAndRemoveAllEvery(kind: RepositoryKind) async throws {
        // Given three saved devices
        let directory = TemporaryDirectory()
        let repository = try kind.open(in: directory)
        for index in 1...3 { try await repository.save(Fixtures.record(index)) }

        // When one is removed
        let removed = try await repository.remove(Fixtures.id(2))

        // Then only that one is gone, and removing it again reports it unknown
        #expect(removed)
        #expect(try await repository.all().map(\.id) == [Fixtures.id(3), Fixtures.id(1)])
        #expect(try await repository.remove(Fixtures.id(2)) == false)

        // When every record is removed, Then none is left, in a new repository on the file too
        try await repository.removeAll()
        #expect(try await repository.all().isEmpty)
        #expect(try await kind.open(in: directory).all().isEmpty)
    }

    @Test(arguments: RepositoryKind.all)
    func updateCreatesThenChangesARecord(kind: RepositoryKind) async throws {
        // Given an empty repository
        let directory = TemporaryDirectory()
        let repository = try kind.open(in: directory)

        // When a device is updated twice, the change counting what it is given
        let first = try await repository.update(Fixtures.id(5)) { stored in
            stored ?? Fixtures.record(5)
        }
        let second = try await repository.update(Fixtures.id(5)) { stored in
            var record = stored ?? Fixtures.record(5, count: 100)
            record.connectionCount += 1
            return record
        }

        // Then the first created the record and the second saw it
        #expect(first == Fixtures.record(5))
        #expect(second.connectionCount == 2)
        #expect(try await repository.record(for: Fixtures.id(5)) == second)
    }

    @Test(arguments: RepositoryKind.all)
    func updateThatChangesTheIDIsRejected(kind: RepositoryKind) async throws {
        // Given a repository
        let directory = TemporaryDirectory()
        let repository = try kind.open(in: directory)

        // When an update of device 1 returns device 2's record
        let error = await #expect(throws: AirlinkError.self) {
            try await repository.update(Fixtures.id(1)) { _ in Fixtures.record(2) }
        }

        // Then it is rejected and nothing is stored
        #expect(error?.code == .invalidArgument)
        #expect(try await repository.all().isEmpty)
    }

    @Test(arguments: RepositoryKind.all, InvalidRecord.all)
    func invalidRecordIsRejected(kind: RepositoryKind, invalid: InvalidRecord) async throws {
        // Given a repository holding one valid record
        let directory = TemporaryDirectory()
        let repository = try kind.open(in: directory)
        try await repository.save(Fixtures.record(1))

        // When an invalid record is saved, or produced by an update
        let saveError = await #expect(throws: AirlinkError.self) { try await repository.save(invalid.record) }
        let updateError = await #expect(throws: AirlinkError.self) {
            try await repository.update(invalid.record.id) { _ in invalid.record }
        }

        // Then both are rejected with the code that names the fault, and the store is unchanged
        #expect(saveError?.code == invalid.code)
        #expect(updateError?.code == invalid.code)
        #expect(try await kind.open(in: directory).all() == [Fixtures.record(1)])
    }

    @Test(arguments: RepositoryKind.all)
    func concurrentUpdatesThroughTwoRepositoriesOnOneFileAreAllKept(kind: RepositoryKind) async throws {
        // Given two repositories on the same file
        let directory = TemporaryDirectory()
        let repositories = [try kind.open(in: directory), try kind.open(in: directory)]

        // When 40 tasks each count one connection of the same device, half through each repository
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<40 {
                let repository = repositories[task % 2]
                group.addTask {
                    _ = try await repository.update(Fixtures.id(1)) { stored in
                        guard var record = stored else { return Fixtures.record(1) }
                        record.connectionCount += 1
                        return record
                    }
                }
            }
            try await group.waitForAll()
        }

        // Then no count was lost
        #expect(try await repositories[0].record(for: Fixtures.id(1))?.connectionCount == 40)
        #expect(try await kind.open(in: directory).record(for: Fixtures.id(1))?.connectionCount == 40)
    }

    @Test(arguments: RepositoryKind.all)
    func aRepositorySeesAnotherRepositorysChanges(kind: RepositoryKind) async throws {
        // Given two repositories on one file, the first having read it
        let directory = TemporaryDirectory()
        let reader = try kind.open(in: directory)
        let writer = try kind.open(in: directory)
        try await writer.save(Fixtures.record(1))
        #expect(try await reader.all().count == 1)

        // When the second saves, changes and removes records
        try await writer.save(Fixtures.record(2))
        try await writer.save(Fixtures.record(1, count: 9))
        try await writer.remove(Fixtures.id(2))

        // Then the first reads what the second wrote
        #expect(try await reader.all() == [Fixtures.record(1, count: 9)])
    }
}

/// A record each repository must refuse, and the code it refuses it with.
struct InvalidRecord: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let record: ConnectionRecord
    let code: AirlinkError.Code

    static var all: [InvalidRecord] {
        func with(_ change: (inout ConnectionRecord) -> Void) -> ConnectionRecord {
            var record = Fixtures.record(7)
            change(&record)
            return record
        }
        return [
            InvalidRecord(
                testDescription: "zero address", record: with { $0.id = "00:00:00:00:00:00" }, code: .invalidDeviceID),
            InvalidRecord(
                testDescription: "reserved random address", record: with { $0.id = "80:11:22:33:44:55/random" },
                code: .invalidDeviceID),
            InvalidRecord(
                testDescription: "opaque id with a space", record: with { $0.id = try! DeviceID(opaque: "my phone") },
                code: .invalidDeviceID),
            InvalidRecord(
                testDescription: "opaque id too long",
                record: with { $0.id = try! DeviceID(opaque: String(repeating: "x", count: 257)) },
                code: .invalidDeviceID),
            InvalidRecord(
                testDescription: "no connection", record: with { $0.connectionCount = 0 }, code: .invalidArgument),
            InvalidRecord(
                testDescription: "first after last",
                record: with { $0.firstConnected = $0.lastConnected.advanced(by: .seconds(1)) },
                code: .invalidArgument),
            InvalidRecord(
                testDescription: "time not a number",
                record: with { $0.lastConnected = RecordTimestamp(secondsSince1970: .nan) }, code: .invalidArgument),
            InvalidRecord(
                testDescription: "hash too long", record: with { $0.databaseHash = Array(repeating: 1, count: 65) },
                code: .invalidArgument),
        ]
    }
}
