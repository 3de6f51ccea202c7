import AirlinkBlueZTestSupport
import Foundation
import Testing

/// `airlink doctor` against the fake BlueZ, in a healthy state and in each failing one: it names the
/// problem, says what to do, and exits 1 when it found one (0 when only notes).
@Suite(.fakeBlueZ(), .serialized) struct DoctorTests {
    /// A scratch environment: rfkill entries, a main.conf and a bluetoothd that answers `--version`.
    struct Environment {
        let cli: CLI
        var rfkill: String { cli.directory + "/rfkill" }
        var mainConf: String { cli.directory + "/main.conf" }
        var bluetoothd: String { cli.directory + "/bluetoothd" }

        init(_ fake: FakeBlueZ, soft: Bool = false, hard: Bool = false, cache: String = "always") throws {
            cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
            let radio = rfkill + "/rfkill0"
            try FileManager.default.createDirectory(atPath: radio, withIntermediateDirectories: true)
            for (file, text) in [("type", "bluetooth"), ("soft", soft ? "1" : "0"), ("hard", hard ? "1" : "0")] {
                try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: radio + "/" + file))
            }
            try Data("[General]\nName = test\n\n[GATT]\n# Cache = no\nCache = \(cache)\n".utf8).write(
                to: URL(fileURLWithPath: mainConf))
            try Data("#!/bin/sh\necho 5.66\n".utf8).write(to: URL(fileURLWithPath: bluetoothd))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bluetoothd)
        }

        /// Runs `doctor` on it, as JSON when asked.
        func doctor(json: Bool = false, _ extra: [String] = []) async throws -> CLI.Result {
            try await cli.run(
                ["doctor", "--rfkill", rfkill, "--main-conf", mainConf, "--bluetoothd", bluetoothd]
                    + (json ? ["--json"] : []) + extra)
        }
    }

    /// The checks of a JSON report, by name.
    private func checks(_ result: CLI.Result) throws -> [String: [String: Any]] {
        let report = try #require(try result.json() as? [String: Any], "\(result)")
        let checks = try #require(report["checks"] as? [[String: Any]], "\(result)")
        return Dictionary(uniqueKeysWithValues: checks.map { ($0["name"] as? String ?? "", $0) })
    }

    @Test func aHealthyEnvironmentHasNoProblem() async throws {
        // Given the fake BlueZ with its powered adapter, nothing blocked, the cache on
        let fake = try await FakeBlueZ.fresh()
        let environment = try Environment(fake)
        defer { environment.cli.cleanUp() }

        // When doctor runs, as text and JSON
        let text = try await environment.doctor()
        let json = try await environment.doctor(json: true)

        // Then every check is ok and it exits 0
        #expect(text.status == 0 && text.stdout.contains("No problems found."), "\(text)")
        #expect(text.stdout.contains("[ok] version: bluetoothd 5.66"), "\(text)")
        #expect(json.status == 0, "\(json)")
        let found = try checks(json)
        for name in ["version", "rfkill", "bus", "bluetoothd", "permissions", "adapter", "powered", "cache"] {
            #expect(found[name]?["status"] as? String == "ok", "\(name): \(json)")
        }
    }

    @Test func eachFailingStateIsNamedWithWhatToDo() async throws {
        // Given the fake BlueZ
        let fake = try await FakeBlueZ.fresh()

        // When doctor runs in each failing state
        func problem(_ name: String, _ result: CLI.Result, fix: String) throws {
            // Then it exits 1 and the check says what is wrong and what to do
            #expect(result.status == 1, "\(name): \(result)")
            let check = try #require(try checks(result)[name], "\(result)")
            #expect(check["status"] as? String == "problem", "\(name): \(result)")
            #expect((check["fix"] as? String)?.contains(fix) == true, "\(name): \(result)")
        }
        let softBlocked = try Environment(fake, soft: true)
        defer { softBlocked.cli.cleanUp() }
        try await problem("rfkill", try softBlocked.doctor(json: true), fix: "rfkill unblock bluetooth")
        let hardBlocked = try Environment(fake, hard: true)
        defer { hardBlocked.cli.cleanUp() }
        try await problem("rfkill", try hardBlocked.doctor(json: true), fix: "turn it on there")

        let environment = try Environment(fake)
        defer { environment.cli.cleanUp() }
        try await problem(
            "adapter", try environment.doctor(json: true, ["--transport", "bluez:hci7"]), fix: "bluez:hci0")
        try await fake.setPowered(false)
        try await problem("powered", try environment.doctor(json: true), fix: "bluetoothctl power on")
        try await fake.removeAdapter()
        try await problem("adapter", try environment.doctor(json: true), fix: "plug in a Bluetooth adapter")
        try await fake.reset()
        try await fake.failNext(
            "GetManagedObjects", on: "/", error: "org.freedesktop.DBus.Error.AccessDenied", text: "denied")
        try await problem("permissions", try environment.doctor(json: true), fix: "usermod -aG bluetooth")
        try await fake.releaseName()
        let gone = try await environment.doctor()
        try await problem("bluetoothd", try environment.doctor(json: true), fix: "systemctl start bluetooth")
        #expect(gone.status == 1 && gone.stdout.contains("[problem] bluetoothd: BlueZ (org.bluez) is not on the bus"))
        #expect(gone.stdout.contains("    fix: install bluez"), "\(gone)")
        try await fake.reset()

        let noBus = try await environment.cli.run(
            ["doctor", "--json", "--rfkill", environment.rfkill],
            environment: [
                "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/airlink-bus"
            ])
        try problem("bus", noBus, fix: "systemctl start dbus")
    }

    @Test func theCacheTurnedOffIsANoteNotAProblem() async throws {
        // Given BlueZ configured without its GATT cache
        let fake = try await FakeBlueZ.fresh()
        let environment = try Environment(fake, cache: "no")
        defer { environment.cli.cleanUp() }

        // When doctor runs
        let result = try await environment.doctor(json: true)

        // Then the cache is a note saying how to turn it on, and the exit code stays 0
        #expect(result.status == 0, "\(result)")
        let cache = try #require(try checks(result)["cache"])
        #expect(cache["status"] as? String == "note")
        #expect((cache["fix"] as? String)?.contains("Cache = always") == true, "\(result)")
    }
}
