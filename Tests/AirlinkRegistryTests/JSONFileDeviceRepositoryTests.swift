import AirlinkCore
import AirlinkRegistry
import AirlinkTestSupport
import Foundation
import Testing

@Suite struct JSONFileDeviceRepositoryTests {
    @Test func fileHoldsFormatVersionAndDevicesLastConnectedFirst() async throws {
        // Given two saved devices, the second connected later
        let directory = TemporaryDirectory()
        let repository = JSONFileDeviceRepository(path: directory.file("devices.json"))
        try await repository.save(Fixtures.record(1))
        try await repository.save(Fixtures.record(2))

        // When the file is read as plain JSON
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.file("devices.json")))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let devices = try #require(object["devices"] as? [[String: Any]])

        // Then it names its format and version, lists device 2 first, and writes ids, UUIDs and hash as text
        #expect(object["format"] as? String == "airlink-device-registry")
        #expect(object["schemaVersion"] as? Int == 1)
        #expect(devices.map { $0["id"] as? String } == ["C0:FF:EE:00:00:02", "C0:FF:EE:00:00:01"])
        #expect(devices[0]["services"] as? [String] == ["180F", "180A"])
        #expect(devices[0]["databaseHash"] as? String == "025a")
        #expect(devices[0]["lastConnected"] as? Double == 1_767_225_602)

        // And no temporary file is left; the file is the user's only
        #expect(directory.entries() == ["devices.json", "devices.json.lock"])
        let mode = try FileManager.default.attributesOfItem(atPath: directory.file("devices.json"))[.posixPermissions]
        #expect(mode as? Int == 0o600)
    }

    @Test func aWriterThatNeverReleasesTheLockMakesOthersFailNotWaitForever() async throws {
        // Given another process holding the lock (a writer stopped mid-save); it lets go after 120 s,
        // so that a writer that would wait forever fails this test instead of hanging it
        let directory = TemporaryDirectory()
        let path = directory.file("devices.json")
        try await JSONFileDeviceRepository(path: path).save(Fixtures.record(1))
        let holder = Process()
        let ready = Pipe()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec 9>>\"$0\" && flock 9 && echo locked && exec sleep 120", path + ".lock"]
        holder.standardOutput = ready
        try holder.run()
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        // The holder says "locked" once it has the lock; wait for that line, 60 s at most (a loaded machine
        // starts processes slowly), without polling the lock
        var readiness = pollfd(fd: ready.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        try #require(poll(&readiness, 1, 60_000) == 1, "the holder did not take the lock within 60 s")
        let line = String(decoding: ready.fileHandleForReading.availableData, as: UTF8.self)
        try #require(line == "locked\n", "the holder failed before taking the lock: \(line)")

        // When a repository saves
        let started = ContinuousClock.now
        let error = await #expect(throws: AirlinkError.self) {
            try await JSONFileDeviceRepository(path: path).save(Fixtures.record(2))
        }

        // Then it fails with storageFailed after the lock timeout, naming the lock file; reads still work
        #expect(error?.code == .storageFailed)
        #expect(error?.context == path + ".lock")
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(try await JSONFileDeviceRepository(path: path).all() == [Fixtures.record(1)])
    }

    @Test(arguments: CorruptFile.all)
    func corruptFileIsMovedAsideAndReportedWithItsPath(corruption: CorruptFile) async throws {
        // Given a registry file that is corrupt in some way
        let directory = TemporaryDirectory()
        let path = directory.file("devices.json")
        let bytes = corruption.bytes()
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let repository = JSONFileDeviceRepository(path: path)

        // When the registry is read
        let error = await #expect(throws: AirlinkError.self) { try await repository.all() }

        // Then the error is corruptStore naming the file, why, and where it went
        #expect(error?.code == .corruptStore)
        #expect(error?.context == path)
        #expect(error?.message.contains(corruption.reason) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("moved to \(path).corrupt-1") == true)

        // And the file was moved aside whole, and the registry starts empty and works
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".corrupt-1")) == Data(bytes))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try await repository.all().isEmpty)
        try await repository.save(Fixtures.record(1))
        #expect(try await JSONFileDeviceRepository(path: path).all() == [Fixtures.record(1)])
    }

    @Test func aSecondCorruptFileGoesToTheNextFreeName() async throws {
        // Given a file already moved aside once
        let directory = TemporaryDirectory()
        let path = directory.file("devices.json")
        try Data("first".utf8).write(to: URL(fileURLWithPath: path))
        _ = try? await JSONFileDeviceRepository(path: path).all()

        // When another corrupt file is found
        try Data("second".utf8).write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: AirlinkError.self) { try await JSONFileDeviceRepository(path: path).all() }

        // Then it goes to .corrupt-2, keeping .corrupt-1
        #expect(error?.message.contains("\(path).corrupt-2") == true)
        #expect(try String(contentsOfFile: path + ".corrupt-1", encoding: .utf8) == "first")
        #expect(try String(contentsOfFile: path + ".corrupt-2", encoding: .utf8) == "second")
    }

    @Test func fileOfANewerSchemaIsRefusedAndKept() async throws {
        // Given a file written by a newer Airlink, with a field this one does not know
        let directory = TemporaryDirectory()
        let path = directory.file("devices.json")
        let text = #"{"format": "airlink-device-registry", "schemaVersion": 2, "devices": [{"uuid": "x"}]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let repository = JSONFileDeviceRepository(path: path)

        // When it is read, and when a record is saved
        let readError = await #expect(throws: AirlinkError.self) { try await repository.all() }
        let saveError = await #expect(throws: AirlinkError.self) { try await repository.save(Fixtures.record(1)) }

        // Then both are refused with a message saying what to do, and the file is neither moved nor changed
        #expect(readError?.code == .unsupportedStoreVersion)
        #expect(saveError?.code == .unsupportedStoreVersion)
        #expect(readError?.context == path)
        #expect(readError?.message.contains("schema version 2") == true)
        #expect(readError?.message.contains("Upgrade Airlink") == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(!directory.entries().contains { $0.contains("corrupt") })
    }

    @Test func unreadableFileIsReportedAndLeftInPlace() async throws {
        // Given a registry path that is a directory, which cannot be read as a file
        let directory = TemporaryDirectory()
        let path = directory.file("devices.json")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)

        // When the registry is read
        let error = await #expect(throws: AirlinkError.self) { try await JSONFileDeviceRepository(path: path).all() }

        // Then it is a storage failure naming the path and the system call, and nothing is moved
        #expect(error?.code == .storageFailed)
        #expect(error?.context == path)
        #expect(error?.cause == .posix(errno: EISDIR, call: "stat"))
        #expect(directory.entries() == ["devices.json"])
    }

    @Test func fileIsCreatedWithItsDirectories() async throws {
        // Given a path whose directories do not exist
        let directory = TemporaryDirectory()
        let path = directory.file("data/airlink/devices.json")

        // When a record is saved
        try await JSONFileDeviceRepository(path: path).save(Fixtures.record(1))

        // Then the directories and the file exist
        #expect(try await JSONFileDeviceRepository(path: path).all() == [Fixtures.record(1)])
    }

    @Test(arguments: [
        (["XDG_DATA_HOME": "/srv/data", "HOME": "/home/ada"], "/srv/data/airlink/devices.json"),
        (["HOME": "/home/ada"], "/home/ada/.local/share/airlink/devices.json"),
        (["XDG_DATA_HOME": "relative/data", "HOME": "/home/ada"], "/home/ada/.local/share/airlink/devices.json"),
    ])
    func defaultFileIsInTheUsersDataDirectory(environment: [String: String], expected: String) throws {
        // When the default repository is made for this environment
        let repository = try JSONFileDeviceRepository(environment: environment)

        // Then its file follows the XDG rules
        #expect(repository.path == expected)
    }

    @Test func defaultFileNeedsAHomeOrDataDirectory() {
        // When neither HOME nor XDG_DATA_HOME is set, Then the error says to set one
        let error = #expect(throws: AirlinkError.self) { try JSONFileDeviceRepository(environment: [:]) }
        #expect(error?.code == .storageFailed)
        #expect(error?.message.contains("HOME") == true)
    }
}

/// A way a registry file can be corrupt, and the words the error must use for it.
struct CorruptFile: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let reason: String
    let bytes: @Sendable () -> [UInt8]

    static func document(_ devices: String) -> [UInt8] {
        Array(#"{"format": "airlink-device-registry", "schemaVersion": 1, "devices": [\#(devices)]}"#.utf8)
    }

    static let device =
        #"{"id": "C0:FF:EE:00:00:01", "services": [], "firstConnected": 1, "lastConnected": 2, "connectionCount": 1}"#

    static let all: [CorruptFile] = [
        CorruptFile(testDescription: "empty", reason: "the file is empty") { [] },
        CorruptFile(testDescription: "not JSON", reason: "not a JSON object") { Array("\u{0}\u{1}garbage".utf8) },
        CorruptFile(testDescription: "torn in half", reason: "not a JSON object") {
            let whole = document(device)
            return Array(whole[..<(whole.count / 2)])
        },
        CorruptFile(testDescription: "another format", reason: #"its "format" is "something-else""#) {
            Array(#"{"format": "something-else", "schemaVersion": 1, "devices": []}"#.utf8)
        },
        CorruptFile(testDescription: "invalid id", reason: "devices[1].id") {
            document(device + "," + device.replacingOccurrences(of: "C0:FF:EE:00:00:01", with: "not-an-address"))
        },
        CorruptFile(testDescription: "zero address", reason: "devices[0]: 00:00:00:00:00:00 is not a device's address")
        {
            document(device.replacingOccurrences(of: "C0:FF:EE:00:00:01", with: "00:00:00:00:00:00"))
        },
        CorruptFile(testDescription: "listed twice", reason: "devices[1]: C0:FF:EE:00:00:01 is listed twice") {
            document(device + "," + device)
        },
        CorruptFile(testDescription: "missing count", reason: "devices[0].connectionCount is missing") {
            document(device.replacingOccurrences(of: #", "connectionCount": 1"#, with: ""))
        },
        CorruptFile(testDescription: "bad hash", reason: "databaseHash") {
            document(device.replacingOccurrences(of: "}", with: #", "databaseHash": "xyz"}"#))
        },
    ]
}
