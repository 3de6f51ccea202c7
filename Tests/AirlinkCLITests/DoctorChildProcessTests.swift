import Foundation
import Testing

/// `doctor` holds what it starts and what it reads to the rules of every input: `bluetoothd --version` runs in
/// its own process group with no signal blocked, is killed at its deadline or past its output bound (and
/// reported as such, never as "no bluetoothd found"), and a grandchild holding its output never stalls it;
/// `--main-conf` naming a FIFO, a directory or a device is said to be one, never read and never "absent".
@Suite struct DoctorChildProcessTests {
    /// The longest a doctor run may take here: the child's deadline (5 s) and the rest, with room.
    static let deadline = Duration.seconds(30)

    /// Runs `doctor --json` with `script` as bluetoothd (on no bus: the bus check fails at once); returns the
    /// result and its checks by name.
    private func doctor(
        bluetoothd script: String, mainConf: String? = nil, in cli: CLI
    ) async throws -> (CLI.Result, [String: [String: Any]]) {
        let bluetoothd = cli.directory + "/bluetoothd"
        try Data(("#!/bin/sh\n" + script.replacingOccurrences(of: "DIR", with: cli.directory)).utf8).write(
            to: URL(fileURLWithPath: bluetoothd))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bluetoothd)
        let conf = (mainConf ?? "DIR/main.conf").replacingOccurrences(of: "DIR", with: cli.directory)
        if mainConf == nil { try Data("[GATT]\nCache = always\n".utf8).write(to: URL(fileURLWithPath: conf)) }
        let result = try await cli.start(
            [
                "doctor", "--json", "--rfkill", cli.directory + "/no-rfkill", "--main-conf", conf, "--bluetoothd",
                bluetoothd,
            ], environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/airlink-bus"]
        ).wait(upTo: Self.deadline)
        #expect(!result.timedOut, "\(result)")
        #expect(!result.signalled, "\(result)")
        guard let report = try? result.json() as? [String: Any], let checks = report["checks"] as? [[String: Any]]
        else {
            Issue.record("no JSON report: \(result)")
            return (result, [:])
        }
        return (result, Dictionary(uniqueKeysWithValues: checks.map { ($0["name"] as? String ?? "", $0) }))
    }

    @Test func aChildStartsWithNoSignalBlockedOrIgnored() async throws {
        // Given a bluetoothd that writes its signal mask and ignored set, then its version
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When doctor asks it for its version
        let (result, checks) = try await doctor(
            bluetoothd: "grep -E '^Sig(Blk|Ign)' /proc/self/status > DIR/mask\necho 5.66", in: cli)

        // Then it answered, and it ran with no signal blocked and none ignored
        #expect(checks["version"]?["status"] as? String == "ok", "\(result)")
        let mask = try String(contentsOfFile: cli.directory + "/mask", encoding: .utf8)
        func set(_ name: String) -> UInt64? {
            mask.split(separator: "\n").first { $0.hasPrefix(name + ":") }.flatMap {
                UInt64($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16)
            }
        }
        #expect(set("SigBlk") == 0, "\(mask)")
        // Signals 1 to 31 (glibc keeps 32 and 33 for itself; posix_spawn cannot reset them)
        #expect(set("SigIgn").map { $0 & 0x7FFF_FFFF } == 0, "\(mask)")
    }

    @Test func aChildThatNeverEndsIsKilledAtItsDeadline() async throws {
        // Given a bluetoothd that ignores SIGTERM and never ends
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When doctor asks it for its version
        let (result, checks) = try await doctor(bluetoothd: "trap '' TERM\nexec sleep 100000", in: cli)

        // Then doctor ends, saying the child did not answer in time
        let detail = checks["version"]?["detail"] as? String ?? ""
        #expect(detail.contains("did not end within 5s (killed)"), "\(result)")
    }

    @Test func aGrandchildHoldingTheOutputNeverStallsDoctor() async throws {
        // Given a bluetoothd that answers, leaving a grandchild holding its output
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When doctor asks it for its version
        let (result, checks) = try await doctor(bluetoothd: "sleep 100000 &\necho 5.66", in: cli)

        // Then the answer is taken when the child exits
        #expect(checks["version"]?["status"] as? String == "ok", "\(result)")
        #expect((checks["version"]?["detail"] as? String)?.contains("5.66") == true, "\(result)")
        #expect(result.elapsed < .seconds(5), "\(result)")
    }

    @Test func aChildPrintingWithoutEndIsReportedAsSuch() async throws {
        // Given a bluetoothd that prints 50 MB
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When doctor asks it for its version
        let (result, checks) = try await doctor(bluetoothd: "head -c 50000000 /dev/zero", in: cli)

        // Then it says the child printed too much, not that there is no bluetoothd
        let detail = checks["version"]?["detail"] as? String ?? ""
        #expect(detail.contains("printed more than 4096 bytes"), "\(result)")
        #expect(!detail.contains("no bluetoothd found"), "\(result)")
    }

    @Test(arguments: [
        ("DIR/fifo", "is a FIFO (named pipe)"), ("DIR", "is a directory"), ("/dev/zero", "is a character device"),
    ])
    func mainConfThatIsNoFileIsSaidToBeWhatItIs(_ path: String, _ message: String) async throws {
        // Given a --main-conf that is a FIFO nobody writes to, a directory, or a device without end
        let cli = try CLI()
        defer { cli.cleanUp() }
        #expect(mkfifo(cli.directory + "/fifo", 0o600) == 0)

        // When doctor reads it
        let (result, checks) = try await doctor(bluetoothd: "echo 5.66", mainConf: path, in: cli)

        // Then the cache check says what the path is, never that the file is absent
        let cache = checks["cache"]
        #expect(cache?["status"] as? String == "note", "\(result)")
        #expect((cache?["detail"] as? String)?.contains(message) == true, "\(result)")
    }
}
