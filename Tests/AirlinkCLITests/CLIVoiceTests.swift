import AirlinkBlueZTestSupport
import AirlinkTestSupport
import Foundation
import Testing

/// The CLI speaks with one voice: every command honours `--json` (streams as JSON Lines), an error is
/// one `Error:` line with advice for CLI users, and every failure exits with the status of the table
/// in Docs/CLI.md ("Exit codes").
@Suite struct CLIVoiceTests {
    /// Each line of `text` parsed as a JSON object.
    private func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test func thermostatAndBatteryHonourJSON() async throws {
        // Given the CLI on the simulated world
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When the typed commands run with --json
        let get = try await cli.run("thermostat", World.thermostat, "get", "--json")
        let set = try await cli.run("thermostat", World.thermostat, "set", "23.5", "--json")
        let battery = try await cli.run("battery", World.battery, "--json")

        // Then each prints one JSON object with the device, the values typed and their units
        #expect(get.status == 0, "\(get)")
        let reading = try #require(try get.json() as? [String: Any], "\(get)")
        #expect(reading["device"] as? String == World.thermostat && reading["action"] as? String == "get")
        let temperature = try #require(reading["temperature"] as? [String: Any])
        #expect(temperature["unit"] as? String == "celsius" && temperature["degrees"] is Double)
        let written = try #require(try set.json() as? [String: Any], "\(set)")
        #expect((written["setPoint"] as? [String: Any])?["degrees"] as? Double == 23.5)
        let level = try #require(try battery.json() as? [String: Any], "\(battery)")
        #expect(level["device"] as? String == World.battery && level["level"] as? Int == 87)
    }

    @Test func inspectorStreamsAreJSONLines() async throws {
        // Given the CLI
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When observe and inspect run their demo with --json
        let observe = try await cli.run("observe", "Test Server", "--demo", "--duration", "3s", "--json")
        let inspect = try await cli.run("inspect", "--demo", "--json")

        // Then every line is a JSON object: observe's found, value and changed events with typed values,
        // inspect's exchange with times and messages
        #expect(observe.status == 0, "\(observe)")
        let events = try jsonLines(observe.stdout)
        #expect(events.first?["event"] as? String == "found" && events.first?["name"] as? String == "Test Server")
        let label = try #require(events.first { $0["identifier"] as? String == "label" })
        #expect(label["value"] as? String == "kitchen" && label["options"] as? [String] == ["read", "write"])
        #expect(events.contains { $0["event"] as? String == "changed" && $0["value"] is Double })
        #expect(inspect.status == 0, "\(inspect)")
        let exchange = try jsonLines(inspect.stdout)
        #expect(exchange.count > 3 && exchange.allSatisfy { $0["time"] is Double && $0["message"] is String })
    }

    @Test func simulateOnARecordingSaysToReplayItWithTheTransport() async throws {
        // Given the CLI and a recording shipped in Simulations/devices (made with airlink record, not a scenario)
        let cli = try CLI()
        defer { cli.cleanUp() }
        let recording = World.shipped("Simulations/devices/thermostat.yaml")

        // When it is given to simulate
        let result = try await cli.run("simulate", recording)

        // Then it is refused as unusable input, saying it is a recording and how to replay it, not "missing duration"
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("is a recording"), "\(result)")
        #expect(result.stderr.contains("--transport sim:\(recording)"), "\(result)")
        #expect(!result.stderr.contains("duration"), "\(result)")
    }

    @Test func simulatePrintsItsEventsAsJSONLines() async throws {
        // Given the CLI and a scenario with its golden trace
        let cli = try CLI()
        defer { cli.cleanUp() }
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let scenario = root.appendingPathComponent("Simulations/linear-link-loss.yaml").path

        // When it runs with --json
        let result = try await cli.run("simulate", scenario, "--json")

        // Then every line is an object with a type: the events in time order, the expectations, and the
        // result last, with the golden trace's verdict
        #expect(result.status == 0, "\(result)")
        let lines = try jsonLines(result.stdout)
        let events = lines.filter { $0["type"] as? String == "event" }
        #expect(events.first?["event"] as? String == "connected" && events.first?["device"] as? String != nil)
        let times = events.compactMap { $0["time"] as? Double }
        #expect(times.count == events.count && times == times.sorted())
        #expect(lines.contains { $0["type"] as? String == "expectation" && $0["held"] as? Bool == true })
        let last = try #require(lines.last)
        #expect(last["type"] as? String == "result" && last["passed"] as? Bool == true, "\(result)")
        #expect((last["golden"] as? String)?.hasPrefix("matches: ") == true, "\(result)")
    }

    @Test func explorePrintsTheSeedsOfAShard() async throws {
        // Given the CLI
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When it is asked for shards of 1...10 in three, and for the second half of the ten largest seeds
        var shards: [CLI.Result] = []
        for shard in 1...3 {
            shards.append(try await cli.run("explore", "--seeds", "1...10", "--shard", "\(shard)/3", "--print-shard"))
        }
        let last = try await cli.run(
            "explore", "--seeds", "18446744073709551606...18446744073709551615", "--shard", "2/2",
            "--print-shard")

        // Then each is the slice ExplorationSweep runs, ⌊count·(K−1)/N⌋ to ⌊count·K/N⌋ − 1 from the first
        // seed: the slices cover the range once, and the last one ends at the largest seed
        #expect(shards.map(\.status) == [0, 0, 0], "\(shards)")
        #expect(shards.map(\.stdout) == ["1...3\n", "4...6\n", "7...10\n"], "\(shards)")
        #expect(last.stdout == "18446744073709551611...18446744073709551615\n", "\(last)")
    }

    @Test func exploreEndsWithASummaryLine() async throws {
        // Given the CLI and a scenario file
        let cli = try CLI()
        defer { cli.cleanUp() }
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let scenario = root.appendingPathComponent("Simulations/linear-link-loss.yaml").path

        // When a few seeds are explored, and the scenario replayed, with --json
        let sweep = try await cli.run("explore", "--seeds", "1...3", "--jobs", "1", "--json")
        let replay = try await cli.run("explore", "--replay", scenario, "--json")

        // Then each prints JSON Lines ending with its verdict
        #expect(sweep.status == 0, "\(sweep)")
        let summary = try #require(try jsonLines(sweep.stdout).last, "\(sweep)")
        #expect(summary["type"] as? String == "summary" && summary["runs"] as? Int == 3, "\(sweep)")
        #expect(summary["passed"] as? Bool == true && summary["faults"] is [[String: Any]], "\(sweep)")
        let verdict = try #require(try jsonLines(replay.stdout).last, "\(replay)")
        #expect(verdict["type"] as? String == "replay" && verdict["passed"] as? Bool == true, "\(replay)")
    }

    @Test(arguments: [
        ["read", "AA:BB:CC:DD:EE:FF", "battery", "battery-level"], ["connect", "AA:BB:CC:DD:EE:FF"],
        ["battery", "AA:BB:CC:DD:EE:FF"], ["thermostat", "AA:BB:CC:DD:EE:FF", "get"],
        ["sensortag", "AA:BB:CC:DD:EE:FF", "--count", "1"],
    ])
    func unknownDeviceIsOneErrorLineWithCLIAdvice(_ arguments: [String]) async throws {
        // Given the CLI on the simulated world, which has no AA:BB:CC:DD:EE:FF
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When a command names that device
        let result = try await cli.run(arguments)

        // Then it exits 1 with one line: the error, the devices there are, and what to type; no log
        // line repeats it, and no advice for library users
        #expect(result.status == 1, "\(result)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result)")
        #expect(result.stderr.hasPrefix("Error: deviceNotFound: the simulated world has no device"), "\(result)")
        #expect(result.stderr.contains(World.battery) && result.stderr.contains("airlink scan"), "\(result)")
        #expect(!result.stderr.contains("Simulation.add") && !result.stderr.contains("Usage:"), "\(result)")
    }

    @Test func aBadIDSaysWhatIsWrongOnce() async throws {
        // Given the CLI
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When an id is not an address
        let result = try await cli.run("battery", "zz")

        // Then the message names it once, says why and what to type
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.components(separatedBy: "is not a").count == 2, "\(result)")
        #expect(result.stderr.contains("\"zz\" is not a device ID: it has 1 group"), "\(result)")
    }

    @Test(arguments: [["scan", "--transport", "bluez"], ["inspect", "--transport", "bluez", "--value", "a=1"]])
    func anUnreachableBusIsSaidOnceWithWhatToCheck(_ arguments: [String]) async throws {
        // Given no D-Bus system bus
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/airlink-bus"])
        defer { cli.cleanUp() }

        // When a central and a peripheral command open BlueZ
        let result = try await cli.run(arguments)

        // Then each says what to check, and the bus's own message once
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("is dbus running?"), "\(result)")
        #expect(result.stderr.components(separatedBy: "Failed to connect to socket").count == 2, "\(result)")
    }

    @Test func eitherFormOfAnIDNamesTheDevice() async throws {
        // Given the CLI on the simulated world, whose battery has a public address
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When the battery is named with its type, then with a type it does not have
        let typed = try await cli.run("battery", World.battery + "/public")
        let wrong = try await cli.run("battery", World.battery + "/random")

        // Then the typed form names it; the wrong type is refused naming the real one
        #expect(typed.status == 0, "\(typed)")
        #expect(wrong.status == 1 && wrong.stderr.contains("has a public address"), "\(wrong)")
    }

    @Test func aRegistryInADirectoryThatDoesNotExistIsAnError() async throws {
        // Given a registry path in a directory that does not exist
        let cli = try CLI()
        defer { cli.cleanUp() }
        let missing = cli.directory + "/no/such/dir"

        // When devices lists it, as JSON and as SQLite
        let json = try await cli.run("devices", "--registry", missing + "/devices.json")
        let sqlite = try await cli.run("devices", "--registry", "sqlite:" + missing + "/devices.sqlite")

        // Then both exit 2 naming the directory, and nothing was created
        for result in [json, sqlite] {
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("the directory \(missing) does not exist"), "\(result)")
            #expect(!result.stdout.contains("No remembered devices"), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsAreGenerated(_ shell: String) async throws {
        // Given the CLI
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When a completion script is asked for
        let result = try await cli.run("--generate-completion-script", shell)

        // Then it prints one that completes the subcommands
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("airlink") && result.stdout.contains("subscribe"), "\(result)")
    }

    @Test func errorsAreColouredOnlyOnATerminalWithoutNOCOLOR() async throws {
        // Given the CLI, run through a pipe and on a terminal (script(1) gives it one), with and without NO_COLOR
        let cli = try CLI()
        defer { cli.cleanUp() }
        func onTerminal(_ environment: [String: String], _ arguments: String = "battery AA:BB:CC:DD:EE:FF") async throws
            -> String
        {
            try await offThePool {
                let command = "\(CLI.executable) \(arguments)"
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
                process.arguments = ["-qec", command, "/dev/null"]
                var variables = ProcessInfo.processInfo.environment.merging(cli.environment) { $1 }
                variables["NO_COLOR"] = nil
                variables["TERM"] = "xterm"
                process.environment = variables.merging(environment) { $1 }
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return String(decoding: data, as: UTF8.self)
            }
        }

        // When the same failing command runs each way
        let piped = try await cli.run("battery", "AA:BB:CC:DD:EE:FF")
        let terminal = try await onTerminal([:])
        let noColour = try await onTerminal(["NO_COLOR": "1"])
        let usage = try await onTerminal([:], "battery zz")

        // Then only the terminal without NO_COLOR gets colour
        #expect(piped.stderr.hasPrefix("Error: "), "\(piped)")
        #expect(terminal.contains("\u{1B}[1;31mError:\u{1B}[0m"), "\(terminal)")
        #expect(usage.contains("\u{1B}[1;31mError:\u{1B}[0m \"zz\" is not a device ID"), "\(usage)")
        #expect(noColour.contains("Error: ") && !noColour.contains("\u{1B}["), "\(noColour)")
    }
}

/// The same voice on the fake BlueZ of Tests/Fixtures/bluez.
@Suite(.fakeBlueZ(), .serialized) struct CLIVoiceOnBlueZTests {
    @Test func scanExplainsRandomAddressesAndJSONKeepsTheSlash() async throws {
        // Given the fake BlueZ, whose battery has a random address
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }

        // When scanning, as text and as JSON
        let text = try await cli.run("scan", "--transport", "bluez", "--timeout", "500ms")
        let json = try await cli.run("scan", "--transport", "bluez", "--timeout", "500ms", "--json")

        // Then the table says what /random means, and the JSON writes the id with its slash as is
        #expect(text.status == 0 && text.stdout.contains("/random: a random address"), "\(text)")
        #expect(json.status == 0 && json.stdout.contains("00:02/random\""), "\(json)")
        #expect(!json.stdout.contains("\\/"), "\(json)")
    }

    @Test func anAddressAloneNamesTheRandomDeviceBlueZKnows() async throws {
        // Given the fake BlueZ, which has heard the battery at a random address
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        #expect(try await cli.run("scan", "--transport", "bluez", "--timeout", "500ms").status == 0)

        // When the battery is named by its address alone, and with its type
        let alone = try await cli.run("battery", "F4:77:E2:00:00:02", "--transport", "bluez", "--json")
        let typed = try await cli.run(
            "read", "F4:77:E2:00:00:02/random", "battery", "battery-level", "--transport", "bluez", "--registry",
            cli.directory + "/devices.json")

        // Then both name the same device, its random id in the report
        #expect(alone.status == 0, "\(alone)")
        let report = try #require(try alone.json() as? [String: Any], "\(alone)")
        #expect(report["level"] is Int && report["device"] as? String == "F4:77:E2:00:00:02/random", "\(alone)")
        #expect(typed.status == 0 && typed.stdout.hasPrefix("0x"), "\(typed)")
    }

    @Test func aFailedCommandSaysOnlyWhyItFailed() async throws {
        // Given the fake BlueZ, which knows no AA:BB:CC:DD:EE:FF, and a thermostat that refuses to connect
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        #expect(try await cli.run("scan", "--transport", "bluez", "--timeout", "500ms").status == 0)

        // When commands fail on it
        let unknown = try await cli.run("battery", "AA:BB:CC:DD:EE:FF", "--transport", "bluez")
        let missing = try await cli.run(
            "read", World.thermostat, "heart-rate", "heart-rate-measurement", "--transport", "bluez", "--registry",
            cli.directory + "/devices.json")

        // Then each prints one error line and nothing else: no log line repeating it, no disconnect warning
        for result in [unknown, missing] {
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
            #expect(result.stderr.hasPrefix("Error: "), "\(result)")
            #expect(!result.stderr.contains("warning"), "\(result)")
        }
    }
}

/// What `devices` shows after sessions that only read, and what the man page is made from.
@Suite struct CLIRegistryViewTests {
    @Test func devicesShowsServicesAndNamesAfterAReadOnlySession() async throws {
        // Given the CLI on the simulated world, with an empty registry
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When the battery is only read, then the registry listed
        let read = try await cli.run("read", World.battery, "battery", "battery-level")
        let devices = try await cli.run("devices", "--json")
        let table = try await cli.run("devices")

        // Then the record has the device's name and every service it has, not none
        #expect(read.status == 0, "\(read)")
        let rows = try #require(try devices.json() as? [[String: Any]], "\(devices)")
        let battery = try #require(rows.first, "\(devices)")
        #expect(battery["name"] as? String == "Battery", "\(devices)")
        #expect(((battery["services"] as? [String]) ?? []).contains("180F"), "\(devices)")
        #expect(table.stdout.contains("Battery Service") && table.stdout.contains("  Battery  "), "\(table)")
    }

    @Test func theHelpDumpTheManPageIsMadeFromListsEveryCommand() async throws {
        // Given the CLI
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When the help the GenerateManual plugin reads is dumped
        let result = try await cli.run("--experimental-dump-help")

        // Then it is JSON naming every command, doctor included
        #expect(result.status == 0, "\(result)")
        for command in ["scan", "connect", "thermostat", "observe", "doctor"] {
            #expect(result.stdout.contains("\"commandName\" : \"\(command)\""), "\(command)")
        }
    }
}
