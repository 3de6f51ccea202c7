import Foundation
import Synchronization
import Testing

@testable import AirlinkCore

/// A file output never replaces what is at its path by something else, and never waits forever: a regular file
/// (or a link's target) is replaced whole, a device or a read FIFO is written into, the rest is refused and left.
@Suite struct OutputFileTests {
    /// A scratch directory, removed when the test ends.
    final class Scratch {
        let path: String
        init() throws {
            path = NSTemporaryDirectory() + "/airlink-output-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }  // try?: scratch; nothing to report
        func kind(_ name: String) throws -> FileAttributeType? {
            try FileManager.default.attributesOfItem(atPath: path + "/" + name)[.type] as? FileAttributeType
        }
        var names: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? [] }
    }

    @Test func aRegularFileIsReplacedWholeKeepingItsModeAndNoTemporaryFileStays() throws {
        let scratch = try Scratch()
        let file = scratch.path + "/trace.txt"
        try Data("old, longer content".utf8).write(to: URL(fileURLWithPath: file))
        #expect(chmod(file, 0o640) == 0)

        try OutputFile.write(Array("new".utf8), to: file, kind: "golden trace")

        #expect(try String(contentsOfFile: file, encoding: .utf8) == "new")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o640)
        #expect(scratch.names == ["trace.txt"])
    }

    @Test func aSymbolicLinkIsFollowedAndStaysALink() throws {
        let scratch = try Scratch()
        try Data("old".utf8).write(to: URL(fileURLWithPath: scratch.path + "/target"))
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: "target")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/dangling", withDestinationPath: "made")

        try OutputFile.write(Array("through".utf8), to: scratch.path + "/link", kind: "report")
        try OutputFile.write(Array("created".utf8), to: scratch.path + "/dangling", kind: "report")

        #expect(try scratch.kind("link") == .typeSymbolicLink)
        #expect(try scratch.kind("dangling") == .typeSymbolicLink)
        #expect(try String(contentsOfFile: scratch.path + "/target", encoding: .utf8) == "through")
        #expect(try String(contentsOfFile: scratch.path + "/made", encoding: .utf8) == "created")
    }

    @Test func aCharacterDeviceIsWrittenIntoAndStaysADevice() throws {
        // /dev/null, as `--report /dev/null` names it
        try OutputFile.write(Array(repeating: 0x41, count: 100_000), to: "/dev/null", kind: "report")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func aFIFONobodyReadsIsRefusedAtOnceAndLeftAFIFO() throws {
        let scratch = try Scratch()
        let fifo = scratch.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)

        let error = #expect(throws: AirlinkError.self) {
            try OutputFile.write(Array("x".utf8), to: fifo, kind: "capture")
        }

        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("nothing reads the FIFO") == true)
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aFIFOWhoseReaderReadsGetsEveryByte() throws {
        let scratch = try Scratch()
        let fifo = scratch.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader that opens first (without waiting for a writer) and drains the FIFO, on a thread of its own (a
        // blocking wait must not hold one of the suite's few pool threads): it waits for bytes (poll reports no
        // hang-up before a writer came) until the writer has come and gone, 10 s at most each time
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        let total = Mutex(0)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer {
                close(reader)
                finished.signal()
            }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 10_000) > 0 else { return }
                let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if count > 0 { total.withLock { $0 += count } }
                if count == 0 { return }  // the writer closed its end
            }
        }

        // 1 MiB: many times the pipe's buffer, so that the writer waits for the reader again and again
        try OutputFile.write(Array(repeating: 7, count: 1 << 20), to: fifo, kind: "capture")

        finished.wait()
        #expect(total.withLock { $0 } == 1 << 20)
    }

    @Test func aReaderThatStopsReadingEndsTheWriteAtTheStallLimit() throws {
        let scratch = try Scratch()
        let fifo = scratch.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader that holds the FIFO open and never reads: the pipe's buffer fills, then nothing moves
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        defer { close(reader) }

        let error = #expect(throws: AirlinkError.self) {
            try OutputFile.write(Array(repeating: 7, count: 1 << 20), to: fifo, kind: "capture", stallLimit: 200)
        }

        #expect(error?.message.contains("took nothing for 0.2 s") == true, "\(String(describing: error))")
    }

    @Test func aReaderThatLeavesMidWriteIsAnErrorNotASignal() async {
        // In a process of its own: without the fix, SIGPIPE ends it
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let fifo = NSTemporaryDirectory() + "/airlink-output-\(getpid()).fifo"
            unlink(fifo)
            guard mkfifo(fifo, 0o600) == 0 else { exit(2) }
            defer { unlink(fifo) }
            // Given a reader that takes one byte, then closes its end
            let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            let left = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, 10_000)
                var byte: UInt8 = 0
                _ = read(reader, &byte, 1)
                close(reader)
                left.signal()
            }
            // When 1 MiB is written to it
            do throws(AirlinkError) {
                try OutputFile.write(Array(repeating: 7, count: 1 << 20), to: fifo, kind: "capture")
                FileHandle.standardError.write(Data("the write succeeded though the reader left".utf8))
                exit(3)
            } catch {
                // Then the write fails, saying the reader went away
                left.wait()
                FileHandle.standardError.write(Data(error.message.utf8))
                exit(error.message.contains("Broken pipe") ? 0 : 4)
            }
        }
        #expect(
            result?.exitStatus == .exitCode(0), "\(String(decoding: result?.standardErrorContent ?? [], as: UTF8.self))"
        )
    }

    @Test func aDirectoryIsRefusedAndAMissingDirectoryNamed() throws {
        let scratch = try Scratch()
        let directory = scratch.path + "/folder"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)

        let refused = #expect(throws: AirlinkError.self) {
            try OutputFile.write(Array("x".utf8), to: directory, kind: "report")
        }
        let missing = #expect(throws: AirlinkError.self) {
            try OutputFile.write(Array("x".utf8), to: scratch.path + "/none/report.html", kind: "report")
        }

        #expect(refused?.message.contains("is a directory, not a file") == true)
        #expect(try scratch.kind("folder") == .typeDirectory)
        #expect(missing?.message.contains("check the directory exists") == true)
    }
}
