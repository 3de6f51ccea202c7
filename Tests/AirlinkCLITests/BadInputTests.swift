import Foundation
import Testing

/// Bad flags and values end with exit code 64 and a message that says what to type; failures at
/// run time with exit code 1 and the typed error's message; a scenario that cannot run with exit
/// code 2. None ends in a signal or runs past its deadline, and no message writes a control
/// character to the terminal.
@Suite struct BadInputTests {
    /// One bad invocation, what it must exit with, and what its message must say.
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var environment: [String: String] = [:]
        var status: Int32 = 64
        var message: String
        /// A scenario file's text, written to a file whose path replaces `SCENARIO` in the arguments.
        var scenario: String?

        var testDescription: String {
            ("airlink " + arguments.joined(separator: " ")).escapingControls
                + (scenario.map { " with " + $0.prefix(80).split(separator: "\n").joined(separator: "; ") } ?? "")
                .escapingControls
        }
    }

    /// The longest any bad input may take before it counts as a hang.
    static let deadline = Duration.seconds(30)

    /// Runs each input; returns what it printed.
    private func run(_ bad: Case) async throws -> CLI.Result {
        let cli = try CLI()
        defer { cli.cleanUp() }
        var arguments = bad.arguments
        if let scenario = bad.scenario {
            let path = cli.directory + "/bad.yaml"
            try Data(scenario.utf8).write(to: URL(fileURLWithPath: path))
            arguments = arguments.map { $0.replacingOccurrences(of: "SCENARIO", with: path) }
        }
        arguments = arguments.map { $0.replacingOccurrences(of: "TMPDIR", with: cli.directory) }
        if arguments.contains(where: { $0.hasSuffix("latin1.yaml") }) {
            try Data([0x64, 0x75, 0x72, 0x3A, 0x20, 0x31, 0x73, 0x0A, 0x6E, 0x3A, 0x20, 0x63, 0xE9, 0x0A]).write(
                to: URL(fileURLWithPath: cli.directory + "/latin1.yaml"))
        }
        if arguments.contains(where: { $0.hasSuffix("fifo.yaml") }) {
            // A FIFO nobody writes to: reading it would wait forever.
            #expect(mkfifo(cli.directory + "/fifo.yaml", 0o600) == 0)
        }
        let result = try await cli.start(arguments, environment: bad.environment).wait(upTo: Self.deadline)
        print(
            "bad input: \(bad.testDescription): \(result.timedOut ? "timed out" : "exit \(result.status)") in "
                + "\(result.elapsed)")
        return result
    }

    @Test(arguments: BadInputTests.flags + BadInputTests.scenarios)
    func badInputSaysWhatToType(_ bad: Case) async throws {
        // Given the CLI
        // When it is run with the bad input
        let result = try await run(bad)

        // Then it exits in time, by itself, with the expected code, and says what was wrong
        #expect(!result.timedOut, "\(result)")
        #expect(!result.signalled, "\(result)")
        #expect(result.status == bad.status, "\(result)")
        #expect(result.stderr.contains(bad.message), "\(result)")
        // And the message is a message, whatever the input holds (a file's line is clipped, never quoted whole)
        #expect(result.stderr.utf8.count < 4_096, "\(result.stderr.prefix(4_096))")
        // And nothing it printed can rewrite the terminal
        #expect(!(result.stdout + result.stderr).contains("\u{1B}"), "\(result)")
    }
}

extension BadInputTests {
    /// Bad flags and arguments.
    static let flags: [Case] = [
        Case(arguments: ["controller", "--tcp", "9000", "--unix", "TMPDIR/h.sock"], message: "exclude each other"),
        Case(arguments: ["controller", "--pty", "--tcp", "9000"], message: "exclude each other"),
        Case(arguments: ["controller", "--drop-link", "thermostat"], message: "write DEVICE@SECONDS[/REASON]"),
        Case(arguments: ["controller", "--drop-link", "C0:FF:EE:00:00:01@2/0xZZ"], message: "no HCI error code"),
        // Empty fields: never an index out of range, never dropped silently.
        Case(arguments: ["controller", "--drop-link", "C0:FF:EE:00:00:01@/"], message: "no delay in seconds"),
        Case(arguments: ["controller", "--drop-link", "C0:FF:EE:00:00:01@"], message: "no delay in seconds"),
        Case(arguments: ["controller", "--drop-link", "C0:FF:EE:00:00:01@/0x08"], message: "no delay in seconds"),
        Case(arguments: ["controller", "--drop-link", "C0:FF:EE:00:00:01@2/"], message: "no HCI error code"),
        Case(
            arguments: ["controller", "--notify-burst", "B4:77:E2:00:00:02@3//10/2A19"],
            message: "DEVICE@SECONDS/COUNT/UUID"),
        Case(
            arguments: ["controller", "--notify-burst", "B4:77:E2:00:00:02@3/0/2A19"],
            message: "DEVICE@SECONDS/COUNT/UUID"),
        Case(arguments: ["controller", "--world", "TMPDIR/missing.yaml"], message: "no scenario file at"),
        // What the world lacks is refused at the start, not left to never happen.
        Case(
            arguments: ["controller", "--drop-link", "11:22:33:44:55:66@2"],
            message: "has no device 11:22:33:44:55:66"),
        Case(
            arguments: ["controller", "--notify-burst", "B4:77:E2:00:00:02@3/10/FFFF"],
            message: "has no characteristic FFFF"),
        // record: what it cannot honour is refused at the input.
        Case(
            arguments: ["record", World.battery, "--write", "2A19=" + String(repeating: "00", count: 600)],
            message: "holds at most 512"),
        Case(arguments: ["record", World.battery, "--subscribe", ""], message: "names an empty UUID"),
        Case(arguments: ["record", World.battery, "--subscribe", "2A19,"], message: "names an empty UUID"),
        Case(
            arguments: ["record", World.battery, "--subscribe", "2A37", "--out", "TMPDIR/b.yaml"], status: 1,
            message: "has no characteristic 2A37 that notifies or indicates"),
        Case(
            arguments: ["controller", "--unix", "TMPDIR/" + String(repeating: "u", count: 200)],
            message: "use a shorter one"),
        Case(arguments: ["scan", "--transport", "usb:0"], message: "write sim, sim:PATH"),
        Case(arguments: ["scan", "--transport", "bluez:hcx"], message: "is not a BlueZ adapter name"),
        Case(
            arguments: ["scan", "--transport", "sim:SCENARIO"], message: "airlink simulate", scenario: "duration: 1s"),
        // A file input is a regular file: a FIFO, a directory or a device is refused at once, never read.
        Case(arguments: ["simulate", "TMPDIR/fifo.yaml"], status: 2, message: "is a FIFO (named pipe)"),
        Case(arguments: ["explore", "--replay", "TMPDIR/fifo.yaml"], status: 2, message: "is a FIFO (named pipe)"),
        Case(arguments: ["scan", "--transport", "sim:TMPDIR/fifo.yaml"], message: "is a FIFO (named pipe)"),
        Case(arguments: ["controller", "--world", "TMPDIR/fifo.yaml"], message: "is a FIFO (named pipe)"),
        Case(arguments: ["simulate", "/dev/zero"], status: 2, message: "is a character device"),
        Case(arguments: ["explore", "--replay", "TMPDIR"], status: 2, message: "is a directory"),
        Case(arguments: ["controller", "--world", "/dev/zero"], message: "is a character device"),
        // sim:FILE says what is wrong with the file, as a scenario's `recorded:` would.
        Case(arguments: ["scan", "--transport", "sim:world.yaml"], message: "no recording file at world.yaml"),
        Case(arguments: ["scan", "--transport", "sim:TMPDIR"], message: "is a directory"),
        Case(arguments: ["scan", "--transport", "sim:/dev/zero"], message: "is a character device"),
        Case(arguments: ["scan", "--transport", "sim:TMPDIR/latin1.yaml"], message: "latin1.yaml:2:5: not UTF-8"),
        Case(arguments: ["scan", "--transport", "sim:SCENARIO"], message: "the file is empty", scenario: ""),
        Case(arguments: ["scan", "--transport", "sim:SCENARIO"], message: "not valid YAML", scenario: "a:\n\tb: 1"),
        // A recording that cannot be replayed is a bad value of --transport, as a missing file is.
        Case(
            arguments: ["scan", "--transport", "sim:SCENARIO"], message: "bad.yaml:1:1: missing `services`",
            scenario: "recording: 1\nname: Cut"),
        Case(
            arguments: ["connect", "C0:FF:EE:00:00:09", "--transport", "sim:SCENARIO"],
            message: "bad.yaml:2:11: a recording has no key `duration`", scenario: "recording: 1\nduration: banana"),
        // A 300,000-character line is shown clipped around the fault, not whole.
        Case(
            arguments: ["scan", "--transport", "sim:SCENARIO"],
            message:
                "bad.yaml:2:300010: not valid YAML: while parsing a block mapping (line 1): did not find expected key",
            scenario: "recording: 1\nname: \"" + String(repeating: "x", count: 300_000) + "\" bad\n"),
        Case(
            arguments: ["scan", "--transport", "sim:SCENARIO"], message: "nested deeper than YAML files may be",
            scenario: String(repeating: "[", count: 100_000)),
        Case(
            arguments: ["scan", "--transport", "sim:SCENARIO"], message: "control characters are not allowed",
            scenario: "recording: 1\nname: \"B\u{0}ig\"\n"),
        Case(
            arguments: ["scan", "--transport", "sim:SCENARIO"],
            message: "bad.yaml:2:1: not valid YAML: `name` written more than once in one mapping",
            scenario: "recording: 1\nname: A\nid: \"C0:FF:EE:00:00:09\"\nname: B\n"),
        Case(
            arguments: ["scan", "--transport", "sim:SCENARIO"], message: "larger than 16777216 bytes, the most read",
            scenario: "recording: 1\n#" + String(repeating: "x", count: 16 << 20) + "\n"),
        Case(
            arguments: ["simulate", "SCENARIO"], status: 2, message: "`world` written more than once",
            scenario: "duration: 1s\nworld: []\nworld: []\n"),
        Case(
            arguments: ["controller", "--world", "SCENARIO"], message: "`duration` written more than once",
            scenario: "duration: 1s\nduration: 2s\n"),
        Case(
            arguments: ["explore", "--replay", "SCENARIO"], status: 2, message: "`seed` written more than once",
            scenario: "seed: 1\nseed: 2\n"),
        Case(arguments: ["scan"], environment: ["AIRLINK_TRANSPORT": "radio"], message: "AIRLINK_TRANSPORT=radio"),
        Case(arguments: ["connect"], message: "airlink connect ID, or airlink connect --last"),
        Case(arguments: ["connect", "C0:FF:EE:00:00:01", "--last"], message: "either an ID or --last"),
        Case(arguments: ["connect", "not-an-id"], message: "is not a device ID"),
        Case(arguments: ["pair", World.thermostat, "--passkey", "-1"], message: "0 to 999999, not \"-1\""),
        Case(arguments: ["pair", World.thermostat, "--passkey", "1000000"], message: "for example --passkey 123456"),
        Case(arguments: ["pair", World.thermostat, "--passkey", "12a"], message: "0 to 999999, not \"12a\""),
        Case(arguments: ["pair", World.thermostat, "--passkey", "1", "--confirm"], message: "not both"),
        Case(arguments: ["pair", "not-an-id"], message: "is not a device ID"),
        Case(
            arguments: ["thermostat", World.thermostat, "set", "1e300"],
            message: "outside what a thermostat accepts, 5.00 to 35.00 °C"),
        Case(
            arguments: ["thermostat", World.thermostat, "set", "200", "--unit", "fahrenheit"],
            message: "41.00 to 95.00 °F: write a value in that range, such as 70.70"),
        Case(arguments: ["connect", World.thermostat, "--reconnect", "linear:2s"], message: "linear:2s,3"),
        Case(arguments: ["connect", World.thermostat, "--reconnect", "linear:soon,3"], message: "is not a duration"),
        Case(arguments: ["connect", World.thermostat, "--reconnect", "exponential:30s,1s,5"], message: "the cap"),
        Case(arguments: ["read", World.battery, "battery", "battery-levle"], message: "battery-level"),
        Case(arguments: ["read", World.battery, "battery", "battery-level", "--format", "float"], message: "uint8"),
        Case(arguments: ["write", World.battery, "battery", "battery-level", "0xABC"], message: "pairs of hex digits"),
        Case(
            arguments: ["write", World.battery, "battery", "battery-level", "300", "--format", "uint8"],
            message: "0...255"),
        Case(
            arguments: ["subscribe", World.battery, "battery", "battery-level", "--count", "0"], message: "--count 5"),
        Case(arguments: ["forget", "nobody"], message: "is not a device ID"),
        // Durations: overflowing, negative (also as a separate argument), not finite, beyond the sim's limit.
        Case(arguments: ["connect", World.thermostat, "--connect-timeout", "0s"], message: "must be positive"),
        Case(arguments: ["connect", World.thermostat, "--connect-timeout", "1e12s"], message: "longer than"),
        Case(arguments: ["connect", World.thermostat, "--connect-timeout=-5s"], message: "is negative"),
        Case(arguments: ["connect", World.thermostat, "--connect-timeout", "-5s"], message: "is negative"),
        Case(arguments: ["connect", World.thermostat, "--connect-timeout", "nan"], message: "is not a duration"),
        Case(arguments: ["connect", World.thermostat, "--connect-timeout", "infs"], message: "is not a duration"),
        Case(arguments: ["connect", World.thermostat, "--connect-timeout", "2h"], message: "at most 600s"),
        Case(arguments: ["scan", "--timeout", "1e12s"], message: "longer than the longest duration"),
        Case(arguments: ["scan", "--timeout", "1000000h"], message: "366 days"),
        Case(arguments: ["scan", "--timeout", "11m"], message: "the most it accepts on --transport sim"),
        Case(arguments: ["scan", "--timeout=-1s"], message: "is negative"),
        Case(arguments: ["scan", "--timeout", "5parsecs"], message: "is not a duration"),
        Case(
            arguments: ["subscribe", World.battery, "battery", "battery-level", "--duration", "1e300"],
            message: "--duration \"1e300\" is longer than"),
        Case(
            arguments: ["subscribe", World.battery, "battery", "battery-level", "--duration", "-1s"],
            message: "--duration \"-1s\" is negative"),
        Case(arguments: ["sensortag", "--period", "1e12s"], message: "--period \"1e12s\" is longer"),
        Case(arguments: ["observe", "Test Server", "--timeout", "1e12s"], message: "--timeout"),
        Case(arguments: ["observe", "Test Server", "--demo", "--duration", "100000h"], message: "longer than"),
        Case(arguments: ["inspect", "--demo", "--duration", "1e12s"], message: "longer than"),
        Case(
            arguments: ["inspect", "--demo", "--protect", "secret"], message: "--protect secret: no value \"secret\""),
        Case(
            arguments: ["inspect", "--demo", "--protect", "label:maybe"],
            message: "\"maybe\" is not a protection; write label (encrypted) or label:authenticated"),
        Case(
            arguments: ["connect", World.thermostat, "--reconnect", "exponential:1e12s,30s,5"],
            message: "the base \"1e12s\" is longer"),
        Case(
            arguments: ["connect", World.thermostat, "--reconnect", "exponential:1s,1e12s,5"],
            message: "the cap \"1e12s\" is longer"),
        Case(
            arguments: ["connect", World.thermostat, "--reconnect", "linear:2s,9223372036854775807"],
            message: "from 1 to 1000"),
        Case(arguments: ["connect", World.thermostat, "--reconnect", "linear:-2s,3"], message: "is negative"),
        // Counts.
        Case(
            arguments: ["subscribe", World.battery, "battery", "battery-level", "--count", "-3"], message: "--count 5"),
        Case(
            arguments: ["subscribe", World.battery, "battery", "battery-level", "--count", "99999999999999999999"],
            message: "--count"),
        Case(arguments: ["sensortag", "--count", "9223372036854775807"], message: "from 1 to 10000"),
        Case(arguments: ["sensortag", "--count", "-3"], message: "from 1 to 10000"),
        Case(arguments: ["simulate", "x.yaml", "--jobs", "1000000"], message: "from 1 to 256"),
        Case(arguments: ["simulate", "x.yaml", "--seeds", "1...18446744073709551615"], message: "more than 100000"),
        Case(arguments: ["simulate", "x.yaml", "--seed", "-1"], message: "--seed"),
        Case(arguments: ["explore"], message: "--seeds 1...1000, or --replay FILE"),
        Case(arguments: ["explore", "--seeds", "10"], message: "write FIRST...LAST"),
        // Where failures go is checked before the sweep, not when the first one is written
        Case(
            arguments: ["explore", "--seeds", "1...2", "--out", "SCENARIO"],
            message: "is a regular file: give a directory",
            scenario: "x"),
        Case(
            arguments: ["explore", "--seeds", "1...2", "--out", "TMPDIR/fifo.yaml"],
            message: "is a FIFO (named pipe): give a directory"),
        Case(arguments: ["explore", "--seeds", "1...2", "--out", "/dev/null"], message: "is a character device"),
        Case(
            arguments: ["explore", "--seeds", "1...10", "--shard", "3/2"], message: "names slice 3 of 2; K is 1 to 2"),
        Case(
            arguments: ["explore", "--seeds", "1...10", "--shard", "0/4"], message: "names slice 0 of 4; K is 1 to 4"),
        Case(arguments: ["explore", "--seeds", "1...10", "--shard=-1/4"], message: "names slice -1 of 4"),
        Case(
            arguments: ["explore", "--seeds", "1...10", "--shard", "1/0"], message: "into 0 slices; N is 1 to 100000"),
        Case(
            arguments: [
                "explore", "--seeds", "1...10", "--shard", "18446744073709551615/18446744073709551615", "--print-shard",
            ], message: "into 18446744073709551615 slices; N is 1 to 100000"),
        Case(
            arguments: ["explore", "--seeds", "1...10", "--shard", "99999999999999999999/4", "--print-shard"],
            message: "names slice 99999999999999999999 of 4; K is 1 to 4"),
        Case(arguments: ["explore", "--seeds", "1...10", "--shard", "a/4"], message: "is not a shard: write K/N"),
        Case(
            arguments: ["explore", "--seeds", "1...10", "--shard", "100001/100001", "--print-shard"],
            message: "into 100001 slices; N is 1 to 100000"),
        Case(arguments: ["explore", "--seeds", "1...10", "--shard", "1/2/3"], message: "is not a shard"),
        Case(arguments: ["explore", "--seeds", "1...10", "--shard", "/"], message: "is not a shard"),
        Case(arguments: ["explore", "--seeds", "1...10", "--jobs", "0"], message: "from 1 to 256"),
        Case(arguments: ["explore", "--seeds", "1...10", "--max-faults", "-1"], message: "from 0 to 100"),
        Case(arguments: ["explore", "--seeds", "1...2", "--replay", "x.yaml"], message: "exclude each other"),
        Case(arguments: ["explore", "--replay", "x.yaml", "--print-shard"], message: "pass --seeds FIRST...LAST"),
        Case(arguments: ["explore", "--seeds", "1...2", "--shard", "1/3", "--print-shard"], message: "holds no seed"),
        // Name patterns that would take exponential time on a hostile name, or are not patterns.
        Case(arguments: ["scan", "--name", "((.*)*)*X"], message: "exponential time"),
        Case(arguments: ["scan", "--name", "(a+)+$"], message: "exponential time"),
        Case(arguments: ["scan", "--name", "(a|aa)*"], message: "choice (|)"),
        Case(arguments: ["scan", "--name", ".*.*.*.*X"], message: "more than 2 repetitions"),
        Case(arguments: ["scan", "--name", "("], message: "not a valid regular expression"),
        Case(arguments: ["scan", "--name", String(repeating: "a", count: 2_000)], message: "at most 1000"),
        Case(arguments: ["inspect", "--demo", "--name", String(repeating: "x", count: 32)], message: "is 32 bytes"),
        // Control characters are echoed escaped.
        Case(arguments: ["connect", "\u{1B}]0;pwned\u{07}"], message: "\"\\u{1B}]0;pwned\\u{7}\" is not a device ID"),
        Case(arguments: ["read", World.battery, "battery", "\u{1B}[2Jlevel"], message: "\\u{1B}[2Jlevel"),
        Case(arguments: ["scan", "--name", "\u{1B}[31m("], message: "\\u{1B}[31m("),
        Case(arguments: ["\u{1B}[2Jx"], message: "Unknown command '\\u{1B}[2Jx'"),
        Case(
            arguments: ["nonsense", "--json"], message: "Unknown command 'nonsense'. The commands are: scan, connect"),
        // Misleading messages.
        Case(arguments: ["forget", "id:has space"], message: "holds a space"),
        Case(arguments: ["simulate", "TMPDIR/nosuch.yaml"], status: 2, message: "no scenario file at"),
        Case(arguments: ["simulate", "TMPDIR"], status: 2, message: "is a directory"),
        Case(arguments: ["simulate", "TMPDIR/latin1.yaml"], status: 2, message: "latin1.yaml:2:5: not UTF-8"),
        // Run-time failures: typed errors with their message.
        Case(
            arguments: ["read", World.battery, "heart-rate", "heart-rate-measurement"], status: 1,
            message: "serviceNotFound"),
        Case(arguments: ["connect", "AA:BB:CC:DD:EE:FF"], status: 1, message: "deviceNotFound"),
        Case(
            arguments: ["scan", "--transport", "bluez"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/airlink-bus"], status: 1,
            message: "D-Bus system bus"),
        Case(
            arguments: ["scan"],
            environment: [
                "AIRLINK_TRANSPORT": "bluez", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/airlink-bus",
            ], status: 1, message: "is dbus running?"),
    ]

    /// A scenario with a thermostat and a client subscribing to it, with `extra` lines added.
    private static func scenario(duration: String = "10s", _ extra: String = "") -> String {
        """
        duration: \(duration)
        world:
          - builtIn: thermostat
        client:
          - device: Thermostat
            subscribe:
              - {service: thermostat-temperature-service, characteristic: thermostat-temperature}
        \(extra)
        """
    }

    /// The subscribing scenario with the client's `reconnection:` set to `reconnection`.
    private static func scenario(reconnection: String) -> String {
        scenario().replacingOccurrences(
            of: "  - device: Thermostat\n", with: "  - device: Thermostat\n    reconnection: \(reconnection)\n")
    }

    /// A scenario with a battery and a client reading its level periodically.
    private static func batteryRead(duration: String = "10s", every: String) -> String {
        """
        duration: \(duration)
        world:
          - builtIn: battery
        client:
          - device: Battery
            read: [{service: battery, characteristic: battery-level, every: \(every), type: uint8}]
        """
    }

    /// A scenario with an inspector and a client reading one of its values, with `read` as the read's keys.
    private static func inspectorRead(duration: String = "10s", _ read: String) -> String {
        """
        duration: \(duration)
        world:
          - inspector: Test Server
            values: [{identifier: temperature, type: double, value: 21.5, options: [read]}]
        client:
          - device: Test Server
            observe: {read: [{identifier: temperature, \(read)}]}
        """
    }

    /// A case running `airlink simulate` on a scenario: exit code 2, the message naming the problem.
    private static func bad(_ yaml: String, _ message: String) -> Case {
        Case(arguments: ["simulate", "SCENARIO"], status: 2, message: message, scenario: yaml)
    }

    /// Bad scenario files.
    static let scenarios: [Case] = [
        bad(scenario(duration: "1e300"), "longer than the longest duration accepted"),
        bad(scenario(duration: "1000000h"), "366 days"),
        bad(scenario(duration: "48h"), "at most 86400s (24h)"),
        bad(scenario(duration: "-1s"), "is negative"),
        bad(
            scenario(
                "timeline:\n  - {at: 1s, do: burstNotifications, device: Thermostat, count: -3, "
                    + "characteristic: thermostat-temperature}"
            ),
            "expected a count from 1 to 10000, found -3"),
        bad(
            scenario(
                "timeline:\n  - {at: 1s, do: burstNotifications, device: Thermostat, count: 1000000000, "
                    + "characteristic: thermostat-temperature}"
            ),
            "from 1 to 10000"),
        bad(
            scenario("timeline:\n  - {at: 1s, do: failNextConnects, device: Thermostat, count: 9223372036854775807}"),
            "from 1 to 10000"),
        bad(scenario("timeline:\n  - {at: 1s, do: neverRespond, device: Thermostat, times: -1}"), "a number of times"),
        bad(scenario("timeline:\n  - {at: -1s, do: dropLink, device: Thermostat}"), "is negative"),
        bad(scenario("expect:\n  - {event: connected, count: -1}"), "expected a count from 0"),
        bad(scenario("expect:\n  - {event: lost, atLeast: 5, atMost: 2}"), "atLeast 5 is more than atMost 2"),
        bad(scenario("expect:\n  - {event: lost, count: 1, atMost: 2}"), "count is an exact number"),
        bad(scenario("expect:\n  - {gaveUpAfter: -2}"), "0 or more"),
        bad(batteryRead(every: "1us"), "a period of at least 1ms"),
        bad(batteryRead(duration: "24h", every: "10ms"), "beyond the 100000 a run allows"),
        bad(batteryRead(every: "1s, count: -4"), "expected a count from 1"),
        bad(inspectorRead(duration: "24h", "every: 1ms"), "beyond the 100000 a run allows"),
        bad(inspectorRead("every: 1s, count: -1"), "expected a count from 1 to 10000"),
        bad(
            "duration: 10s\nworld:\n" + String(repeating: "  - builtIn: battery\n", count: 1_000),
            "at most 64 peripherals"),
        bad(
            """
            duration: 10s
            world:
              - name: Fast
                id: "C0:FF:EE:00:00:10"
                services:
                  - uuid: FFF0
                    characteristics:
                      - {uuid: FFF1, properties: [notify], type: uint8, value: 0, updates: {every: 1us, add: 1}}
            """, "a period of at least 1ms"),
        bad(
            "duration: 24h\nworld:\n"
                + String(repeating: "  - {builtIn: battery, parameters: {drainEvery: 1s}}\n", count: 2),
            "beyond the 100000 a run allows"),
        bad(
            "duration: 10s\nworld:\n  - {name: Fast, id: \"C0:FF:EE:00:00:10\", advertising: {interval: 0s}, "
                + "services: []}", "from 20ms to 10.24s"),
        bad(
            "duration: 10s\nworld:\n  - {builtIn: battery, position: 1e400}", "expected a distance in metres"),
        bad(
            "duration: 10s\nworld:\n  - {builtIn: battery, position: {x: 1e12}}", "expected metres from"),
        bad("duration: 10s\nworld:\n  - {builtIn: battery, parameters: {level: 1e300}}", "from 0 to 100"),
        bad("duration: 10s\nworld:\n  - {builtIn: battery, parameters: {drainEvery: 0s}}", "at least 1ms"),
        bad("duration: 10s\nworld:\n  - {builtIn: thermostat, parameters: {battery: -5}}", "from 0 to 100"),
        bad("duration: 10s\nworld:\n  - {builtIn: sensortag, parameters: {seed: -1}}", "parameters.seed"),
        bad(
            "duration: 10s\nworld:\n  - {builtIn: battery, maximumConnections: -1}",
            "expected a number of centrals from 1 to 64"),
        bad(
            scenario(reconnection: "{linear: {wait: 1s, attempts: 9223372036854775807, timeout: 1s}}"),
            "from 0 to 1000"),
        bad(
            scenario(
                reconnection: "{exponential: {initialDelay: 1s, multiplier: 1e300, maximumDelay: 10s, timeout: 1s}}"),
            "multiplier from 1 to 100"),
        bad(scenario("timeline:\n  - {at: 1e12s, do: dropLink, device: Thermostat}"), "longer than"),
        bad(
            "duration: 10s\nworld:\n  - {builtIn: thermostat, security: {request: {mitm: true, pin: 1234}}}",
            "a security request has no key `pin`"),
    ]
}

extension String {
    /// Control characters written as `\u{..}`, for test names.
    fileprivate var escapingControls: String {
        unicodeScalars.map {
            $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16))}" : "\($0)"
        }
        .joined()
    }
}
