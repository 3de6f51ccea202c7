import AirlinkCore
import AirlinkRegistry
import AirlinkTestSupport
import Foundation
import Testing

/// A writer killed at random moments loses at most the save it was making: the store always
/// opens, holds every acknowledged save, and at most one more.
@Suite struct KillTests {
    /// Kills per repository.
    static let kills = 50
    /// The seed of the kill moments; set AIRLINK_KILL_SEED to reproduce a failure.
    static let seed = ProcessInfo.processInfo.environment["AIRLINK_KILL_SEED"].flatMap { UInt64($0) } ?? 0x5EED

    @Test(arguments: RepositoryKind.all)
    func killedWriterLosesAtMostTheSaveInFlight(kind: RepositoryKind) async throws {
        // Given a store, and a writer process saving records into it in a loop
        let directory = TemporaryDirectory()
        let path = directory.file(kind.fileName)
        let acks = directory.file("acks")
        var random = SplitMix64(seed: Self.seed)
        var newest = -1

        for round in 1...Self.kills {
            // When the writer is killed with SIGKILL a random moment after its first save
            unlink(acks)
            let (writer, ready) = try Self.startWriter(kind: kind, path: path, acks: acks)
            try Self.waitForFirstAcknowledgement(ready, writer: writer)
            // A real pause, not a wait for a condition: the kill must land at a random moment of the writing.
            usleep(UInt32.random(in: 0..<20_000, using: &random))
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            let acknowledged = try Self.lastAcknowledgement(acks)

            // Then a new repository reads the store, which holds every acknowledged save and at most one more
            let records = try await kind.open(path).all()
            let stored = try RegistryWriterProbe.newestSave(in: records)
            #expect(
                stored == acknowledged || stored == acknowledged + 1,
                "kill \(round) (seed \(Self.seed)): saves up to \(acknowledged) acknowledged, \(stored) stored")
            #expect(
                stored >= newest, "kill \(round) (seed \(Self.seed)): the store went back from \(newest) to \(stored)")
            newest = stored
        }
        #expect(!directory.entries().contains { $0.contains("corrupt") })
        #expect(newest >= Self.kills, "the writer saved too little for the test to mean anything")
    }

    /// Starts `airlink-registry-writer` (built beside the test bundle) saving into the store at `path`; its
    /// standard output says when its first save was acknowledged.
    static func startWriter(kind: RepositoryKind, path: String, acks: String) throws -> (Process, ready: Pipe) {
        let process = Process()
        let ready = Pipe()
        process.executableURL = URL(fileURLWithPath: writerExecutable)
        process.arguments = [kind.name, path, acks]
        process.standardOutput = ready
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, ready)
    }

    /// The writer executable next to the test bundle (`swift build --build-tests` builds it).
    static let writerExecutable: String = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("airlink-registry-writer").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return "airlink-registry-writer"
    }()

    /// Waits for the writer's line saying its first save was acknowledged: 30 s at most (the writer is another
    /// process, so the deadline is in real time); a writer that ends first closes the pipe and fails the wait at once.
    static func waitForFirstAcknowledgement(_ ready: Pipe, writer: Process) throws {
        var entry = pollfd(fd: ready.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        var byte: UInt8 = 0
        guard poll(&entry, 1, 30_000) > 0, read(entry.fd, &byte, 1) == 1 else {
            writer.terminate()
            throw ProbeFailure("the writer stopped or did not save within 30 s")
        }
    }

    static func lastAcknowledgement(_ acks: String) throws -> Int {
        let text = try String(contentsOfFile: acks, encoding: .utf8)
        guard let last = text.split(separator: "\n").last.flatMap({ Int($0) }) else {
            throw ProbeFailure("no acknowledgement in \(acks): \(text.debugDescription)")
        }
        return last
    }
}
