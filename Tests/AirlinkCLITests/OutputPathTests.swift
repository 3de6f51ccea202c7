import AirlinkTestSupport
import Foundation
import Testing

/// What a command writes never replaces what is at the path by something else, and never waits for a reader that
/// is not there: `simulate --trace/--report/--capture`, `record --out` and `controller --btsnoop` given a FIFO, a
/// directory or a device.
@Suite struct OutputPathTests {
    static let scenario = World.shipped("Simulations/adapter-power-cycle.yaml")

    /// Whether `path` is still a FIFO.
    static func isFIFO(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
    }

    @Test(arguments: ["--trace", "--report", "--capture"])
    func simulateRefusesAFIFONobodyReadsAndLeavesIt(_ flag: String) async throws {
        // Given a FIFO nobody reads
        let cli = try CLI()
        defer { cli.cleanUp() }
        let fifo = cli.directory + "/out.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)

        // When simulate is told to write there
        let result = try await cli.start(["simulate", Self.scenario, flag, fifo]).wait(upTo: .seconds(30))

        // Then it says so at once, exits 2 (an output it cannot write), and the FIFO is still a FIFO
        #expect(!result.timedOut && result.status == 2, "\(result)")
        #expect(result.stderr.contains("nothing reads the FIFO"), "\(result)")
        #expect(Self.isFIFO(fifo))
    }

    @Test(arguments: ["--trace", "--report", "--capture"])
    func simulateWritesIntoADeviceWithoutReplacingIt(_ flag: String) async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }

        let result = try await cli.run(["simulate", Self.scenario, flag, "/dev/null"])

        #expect(result.status == 0, "\(result)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func simulateReplacesALinksTargetAndKeepsTheLink() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let link = cli.directory + "/trace-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: cli.directory + "/trace.txt")

        let result = try await cli.run(["simulate", Self.scenario, "--trace", link])

        #expect(result.status == 0, "\(result)")
        let target = try String(contentsOfFile: cli.directory + "/trace.txt", encoding: .utf8)
        #expect(!target.isEmpty)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == cli.directory + "/trace.txt")
    }

    @Test func recordRefusesADirectoryOrAFIFOBeforeRecording() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let directory = cli.directory + "/taken.yaml"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let fifo = cli.directory + "/pipe.yaml"
        #expect(mkfifo(fifo, 0o600) == 0)

        let intoDirectory = try await cli.run("record", World.battery, "--out", directory)
        let intoFIFO = try await cli.run("record", World.battery, "--out", fifo)

        #expect(intoDirectory.status == 64 && intoDirectory.stderr.contains("is a directory"), "\(intoDirectory)")
        // And a directory where the capture beside the recording would go
        try FileManager.default.createDirectory(
            atPath: cli.directory + "/beside.capture.jsonl", withIntermediateDirectories: false)
        let besideDirectory = try await cli.run("record", World.battery, "--out", cli.directory + "/beside.yaml")
        #expect(besideDirectory.status == 64, "\(besideDirectory)")
        #expect(besideDirectory.stderr.contains("beside.capture.jsonl is a directory"), "\(besideDirectory)")
        #expect(!intoDirectory.stdout.contains("recorded"), "\(intoDirectory)")
        #expect(intoFIFO.status == 64 && intoFIFO.stderr.contains("is a FIFO (named pipe)"), "\(intoFIFO)")
        #expect(Self.isFIFO(fifo))
    }

    @Test func controllerRefusesABTSnoopFIFONobodyReadsInsteadOfNeverListening() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let fifo = cli.directory + "/capture.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)

        let result = try await cli.start(["controller", "--btsnoop", fifo, "--unix", cli.directory + "/h.sock"])
            .wait(upTo: .seconds(30))

        #expect(!result.timedOut && result.status == 64, "\(result)")
        #expect(result.stderr.contains("nothing reads the FIFO"), "\(result)")
        #expect(Self.isFIFO(fifo))
    }
}
