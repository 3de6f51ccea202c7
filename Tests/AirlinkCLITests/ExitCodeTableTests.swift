import Foundation
import Testing

/// Every command's failure modes end with the status of the one table in Docs/CLI.md ("Exit codes"):
/// 1 a failure at run time, 2 what the command was pointed at is missing or unusable, 3 a stream that
/// gave less than asked, 4 a link lost for good (SubscribeOnBlueZTests), 64 bad flags or values.
@Suite struct ExitCodeTableTests {
    /// One failing invocation and the status the table gives it.
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var status: Int32
        var testDescription: String { "airlink \(arguments.joined(separator: " ")) → \(status)" }
    }

    static let noBus = "unix:path=/nonexistent/airlink-bus"

    static let cases: [Case] = [
        Case(arguments: ["scan", "--timeout", "soon"], status: 64),
        Case(arguments: ["scan", "--transport", "bluez"], status: 1),
        Case(arguments: ["connect"], status: 64),
        Case(arguments: ["connect", "AA:BB:CC:DD:EE:FF"], status: 1),
        Case(arguments: ["connect", "--last"], status: 1),
        Case(arguments: ["read", World.battery, "battery", "battery-level", "--format", "float"], status: 64),
        Case(arguments: ["read", World.battery, "heart-rate", "heart-rate-measurement"], status: 1),
        Case(arguments: ["write", World.battery, "battery", "battery-level", "0xABC"], status: 64),
        Case(arguments: ["write", World.battery, "battery", "battery-level", "0x10"], status: 1),
        Case(arguments: ["subscribe", World.battery, "battery", "battery-level", "--count", "0"], status: 64),
        Case(
            arguments: ["subscribe", World.battery, "battery", "battery-level", "--count", "5", "--duration", "1s"],
            status: 3),
        Case(arguments: ["devices", "--registry", "/nonexistent/airlink/devices.json"], status: 2),
        Case(arguments: ["forget", "nobody"], status: 64),
        Case(arguments: ["forget", World.battery], status: 2),
        Case(arguments: ["sensortag", "--count", "0"], status: 64),
        Case(arguments: ["sensortag", "AA:BB:CC:DD:EE:FF", "--count", "1"], status: 1),
        Case(arguments: ["thermostat", World.thermostat, "set", "40"], status: 64),
        Case(arguments: ["thermostat", "AA:BB:CC:DD:EE:FF", "get"], status: 1),
        Case(arguments: ["battery", "zz"], status: 64),
        Case(arguments: ["battery", World.thermostat + "/random"], status: 1),
        Case(arguments: ["inspect", "--value", "a=1"], status: 64),
        Case(arguments: ["inspect", "--transport", "bluez", "--value", "a=1"], status: 1),
        Case(arguments: ["observe", "Nobody", "--demo", "--timeout", "1s"], status: 1),
        Case(arguments: ["observe", "Nobody", "--timeout", "soon"], status: 64),
        Case(arguments: ["simulate", "/nonexistent/airlink/x.yaml"], status: 2),
        Case(arguments: ["simulate", "x.yaml", "--seeds", "3...1"], status: 64),
        Case(arguments: ["explore", "--seeds", "x"], status: 64),
        Case(arguments: ["explore", "--replay", "/nonexistent/airlink/x.yaml"], status: 2),
        Case(arguments: ["nonsense"], status: 64),
    ]

    @Test(arguments: cases)
    func failureExitsWithTheStatusOfTheTable(_ failing: Case) async throws {
        // Given the CLI with no D-Bus system bus
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": Self.noBus])
        defer { cli.cleanUp() }

        // When the failing invocation runs
        let result = try await cli.start(failing.arguments).wait(upTo: .seconds(60))

        // Then it ends with the table's status and one message on standard error saying why
        #expect(!result.timedOut && !result.signalled, "\(result)")
        #expect(result.status == failing.status, "\(result)")
        #expect(result.stderr.contains("Error: "), "\(result)")
    }

    @Test(arguments: cases)
    func underJSONAFailureIsOneJSONObjectOnStandardError(_ failing: Case) async throws {
        // Given the CLI with no D-Bus system bus
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": Self.noBus])
        defer { cli.cleanUp() }

        // When the failing invocation runs with --json
        let result = try await cli.start(failing.arguments + ["--json"]).wait(upTo: .seconds(60))

        // Then it ends with the same status, and standard error has no Error: line but one JSON object with the code,
        // the message, the advice and the status; unless the command printed its own JSON result saying so (forget)
        #expect(!result.timedOut && !result.signalled, "\(result)")
        #expect(result.status == failing.status, "\(result)")
        #expect(!result.stderr.contains("Error: "), "\(result)")
        let reports = result.stderr.split(separator: "\n").filter { $0.hasPrefix("{\"error\":") }.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["error"] as? [String: Any]
        }
        if reports.isEmpty {
            #expect((try? result.json()) != nil, "neither a JSON error nor a JSON result: \(result)")
            return
        }
        #expect(reports.count == 1, "\(result)")
        let report = reports[0]
        #expect((report["exitCode"] as? Int).map(Int32.init) == failing.status, "\(report)")
        for key in ["code", "message", "advice"] {
            #expect(!((report[key] as? String) ?? "").isEmpty, "\(key) in \(report)")
        }
        if failing.status == 64 {
            #expect(
                report["code"] as? String == "usage" || report["code"] as? String == "invalidArgument"
                    || report["code"] as? String == "invalidDeviceID", "\(report)")
        }
    }
}
