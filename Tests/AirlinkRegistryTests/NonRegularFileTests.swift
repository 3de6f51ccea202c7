import AirlinkCore
import AirlinkRegistry
import AirlinkTestSupport
import Foundation
import Testing

/// A registry path that is not a regular file is refused, untouched and without blocking; the
/// files a store creates beside its file are never reached through a planted symbolic link.
@Suite struct NonRegularFileTests {
    /// What the store's path is made into before the store opens it.
    enum Planted: String, CaseIterable, Sendable {
        case fifo, directory, symlinkToFIFO

        func plant(at path: String, in directory: TemporaryDirectory) throws {
            switch self {
            case .fifo: try #require(mkfifo(path, 0o600) == 0)
            case .directory: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .symlinkToFIFO:
                try #require(mkfifo(directory.file("pipe"), 0o600) == 0)
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: directory.file("pipe"))
            }
        }
    }

    @Test(arguments: RepositoryKind.all, Planted.allCases)
    func aPathThatIsNotARegularFileIsRefusedUntouched(kind: RepositoryKind, planted: Planted) async throws {
        // Given a FIFO, a directory, or a symbolic link to a FIFO where the store's file should be
        let directory = TemporaryDirectory()
        let path = directory.file(kind.fileName)
        try planted.plant(at: path, in: directory)
        let before = directory.entries()
        // (A reader that blocked on the FIFO would wait for a writer; this one, after 5 s, ends the wait.)
        let unblocker = FIFOUnblocker(path: path)
        defer { unblocker.cancel() }

        // When a repository opens it and reads, then saves
        let read = await Result { () async throws(AirlinkError) in try await kind.open(path).all() }
        let saved = await Result { () async throws(AirlinkError) in try await kind.open(path).save(Fixtures.record(1)) }

        // Then both are refused with storageFailed saying it is not a regular file, without waiting
        for result in [read.map { _ in () }, saved] {
            guard case .failure(let error) = result else {
                Issue.record("the store used a \(planted) as its file")
                continue
            }
            #expect(error.code == .storageFailed, "\(error)")
            #expect(error.message.contains("not a regular file"), "\(error.message)")
        }
        #expect(!unblocker.fired, "opening the store blocked on a FIFO")
        // And nothing was renamed aside or replaced
        #expect(!directory.entries().contains { $0.contains("corrupt") }, "\(directory.entries())")
        #expect(directory.entries().filter { !$0.hasSuffix(".lock") } == before)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.type] as? FileAttributeType != .typeRegular)
    }

    @Test(arguments: RepositoryKind.all)
    func aSymlinkToACharacterDeviceIsRefusedAndTheDeviceUntouched(kind: RepositoryKind) async throws {
        // Given the store's path is a symbolic link to /dev/null (this build refuses it before any change)
        let directory = TemporaryDirectory()
        let path = directory.file(kind.fileName)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/null")

        // When a repository reads it
        let result = await Result { () async throws(AirlinkError) in try await kind.open(path).all() }

        // Then it is refused, naming a character device; /dev/null and the link stay as they were
        guard case .failure(let error) = result else {
            Issue.record("read a character device as a registry")
            return
        }
        #expect(error.code == .storageFailed)
        #expect(error.message.contains("a character device, not a regular file"), "\(error.message)")
        #expect(
            try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
                == .typeCharacterSpecial)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "/dev/null")
    }

    @Test func aSymlinkPlantedAtTheTemporaryFileIsNotFollowed() async throws {
        // Given a file of someone else's, and symbolic links to it at the old and likely temporary names
        let directory = TemporaryDirectory()
        let path = directory.file("devices.json")
        let victim = directory.file("victim")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        for name in [".tmp", ".tmp-000000", ".new"] {
            try FileManager.default.createSymbolicLink(atPath: path + name, withDestinationPath: victim)
        }

        // When the registry saves twice
        let repository = JSONFileDeviceRepository(path: path)
        try await repository.save(Fixtures.record(1))
        try await repository.save(Fixtures.record(2))

        // Then the victim is untouched, the registry is a regular file holding both, and no temporary file is left
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType == .typeRegular)
        #expect(try await JSONFileDeviceRepository(path: path).all() == [Fixtures.record(2), Fixtures.record(1)])
        #expect(
            directory.entries() == [
                "devices.json", "devices.json.lock", "devices.json.new", "devices.json.tmp", "devices.json.tmp-000000",
                "victim",
            ])
    }

    @Test func aSymlinkPlantedAtTheLockFileIsNotFollowed() async throws {
        // Given a symbolic link at the lock file's name, to a file of someone else's
        let directory = TemporaryDirectory()
        let path = directory.file("devices.json")
        let victim = directory.file("victim")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: path + ".lock", withDestinationPath: victim)

        // When the registry saves
        let result = await Result { () async throws(AirlinkError) in
            try await JSONFileDeviceRepository(path: path).save(Fixtures.record(1))
        }

        // Then it refuses, naming the lock file; the victim is neither opened for writing nor changed
        guard case .failure(let error) = result else {
            Issue.record("locked through a planted symbolic link")
            return
        }
        #expect(error.code == .storageFailed)
        #expect(error.context == path + ".lock")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    }
}

/// Opens a FIFO for writing after 5 s, ending the wait of a reader that blocked on it (the code
/// before the fix did): the test then fails instead of hanging.
final class FIFOUnblocker: @unchecked Sendable {
    // @unchecked: the flags are read and written under `lock`.
    private let lock = NSLock()
    private var cancelled = false
    private var didFire = false

    init(path: String) {
        let thread = Thread { [self] in
            // Real time, as a deadline: a reader blocked in open(2) on the FIFO waits in the kernel, with nothing to
            // await; only another thread opening the FIFO's other end releases it, and only after a while can it
            // tell a blocked reader from one that has not started yet.
            Thread.sleep(forTimeInterval: 5)
            guard lock.withLock({ !cancelled }) else { return }
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 {
                lock.withLock { didFire = true }
                close(fd)
            }
        }
        thread.start()
    }

    /// Whether a blocked reader was released.
    var fired: Bool { lock.withLock { didFire } }

    /// Stops the release from happening.
    func cancel() { lock.withLock { cancelled = true } }
}
