import Foundation
import Testing

/// Names and what a scan shows, numbers and units (Docs/CLI.md), through the real executable on the
/// built-in simulated world: scan responses, manufacturer data, names for every UUID, descriptors, and
/// times, units and durations printed as people expect.
@Suite struct NamesAndNumbersTests {
    /// Whether `text` is seconds to the microsecond at most: `59.160024`, never `0.22044065300000001`.
    static func isMicroseconds(_ text: some StringProtocol) -> Bool {
        (try? #/\d+(\.\d{1,6})?/#.wholeMatch(in: String(text))) != nil
    }

    @Test func scanShowsTheCompleteNameFromTheScanResponseAndTheManufacturerData() async throws {
        // Given the CLI on the simulated world, whose thermostat advertises "Thermost" and answers active
        // scans with "Thermostat" and manufacturer data A1 B2 under company 0xFFFF
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When scanning (actively, the default), as a table and as JSON
        let table = try await cli.run("scan", "--timeout", "2s")
        let json = try await cli.run("scan", "--timeout", "2s", "--json")

        // Then the thermostat shows its complete name and its manufacturer data, company by name
        #expect(table.status == 0, "\(table)")
        let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix(World.thermostat) })
        #expect(row.contains(" Thermostat "), "\(table)")
        // (0xFFFF's 110-character company name elided after the last whole word within 32 characters)
        #expect(row.contains("Bluetooth SIG Specification… 0xFFFF"), "\(table)")
        #expect(!row.contains("Reserved Default Vendor ID"), "\(table)")
        #expect(row.contains("0xFFFF: 0xa1b2"), "\(table)")
        #expect(table.stdout.hasPrefix("ID "), "\(table)")
        #expect(table.stdout.contains("MANUFACTURER DATA"))
        let devices = try #require(try json.json() as? [[String: Any]], "\(json)")
        let thermostat = try #require(devices.first { $0["id"] as? String == World.thermostat })
        #expect(thermostat["name"] as? String == "Thermostat")
        let data = try #require(thermostat["manufacturerData"] as? [[String: Any]])
        #expect(data.count == 1)
        #expect(data.first?["companyID"] as? String == "0xFFFF")
        #expect((data.first?["company"] as? String)?.hasSuffix("Without Device ID Service Record.") == true)
        #expect(data.first?["hex"] as? String == "0xa1b2")
        // And a scan response is not counted as an advertisement: 2 s of 100 ms advertising is about 20
        let count = try #require(thermostat["advertisements"] as? Int)
        #expect((15...25).contains(count), "\(count)")
    }

    @Test func aPassiveScanHearsOnlyTheAdvertisingPDU() async throws {
        // Given the CLI on the simulated world
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When scanning passively
        let json = try await cli.run("scan", "--timeout", "2s", "--passive", "--json")

        // Then the thermostat shows the shortened name and no manufacturer data: nobody asked for its scan
        // response
        #expect(json.status == 0, "\(json)")
        let devices = try #require(try json.json() as? [[String: Any]], "\(json)")
        let thermostat = try #require(devices.first { $0["id"] as? String == World.thermostat })
        #expect(thermostat["name"] as? String == "Thermost")
        #expect((thermostat["manufacturerData"] as? [Any])?.isEmpty == true)
    }

    @Test func nameMatchesTheCompleteName() async throws {
        // Given the CLI on the simulated world
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When scanning for the name "Thermostat", actively and passively
        let active = try await cli.run("scan", "--timeout", "1s", "--name", "Thermostat", "--json")
        let passive = try await cli.run("scan", "--timeout", "1s", "--name", "Thermostat", "--passive", "--json")

        // Then the active scan finds the thermostat by its complete name; the passive one never hears it
        let found = try #require(try active.json() as? [[String: Any]], "\(active)")
        #expect(found.compactMap { $0["id"] as? String } == [World.thermostat])
        let none = try #require(try passive.json() as? [[String: Any]], "\(passive)")
        #expect(none.isEmpty)
    }

    @Test func connectListsTheDescriptorsUnderEachCharacteristic() async throws {
        // Given the CLI on the simulated world
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When connecting to the thermostat, as a table and as JSON
        let table = try await cli.run("connect", World.thermostat)
        let json = try await cli.run("connect", World.thermostat, "--json")

        // Then the temperature's CCCD and user description are listed under it, named
        #expect(table.status == 0, "\(table)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        let temperature = try #require(lines.firstIndex { $0.hasPrefix("  \(World.temperature)") }, "\(table)")
        #expect(lines[temperature + 1].hasPrefix("    2902  "), "\(table)")
        #expect(lines[temperature + 1].contains("Client Characteristic Configuration"))
        #expect(lines[temperature + 2].hasPrefix("    2901  "), "\(table)")
        let object = try #require(try json.json() as? [String: Any], "\(json)")
        let services = try #require(object["services"] as? [[String: Any]])
        let service = try #require(services.first { $0["uuid"] as? String == World.temperatureService })
        let characteristics = try #require(service["characteristics"] as? [[String: Any]])
        let reading = try #require(characteristics.first { $0["uuid"] as? String == World.temperature })
        let descriptors = try #require(reading["descriptors"] as? [[String: String]])
        #expect(
            descriptors == [
                ["uuid": "2902", "name": "Client Characteristic Configuration"],
                ["uuid": "2901", "name": "Characteristic User Description"],
            ])
    }

    @Test func everyUUIDOfTheBuiltInWorldHasAName() async throws {
        // Given the CLI on the simulated world, with the SIG's Database Hash (2B2A) and the SensorTag's TI
        // vendor services
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When connecting to each built-in device
        for device in [World.thermostat, World.battery, "BC:6A:29:00:00:03"] {
            let json = try await cli.run("connect", device, "--json")

            // Then no service, characteristic or descriptor is "unknown"
            let object = try #require(try json.json() as? [String: Any], "\(json)")
            let services = try #require(object["services"] as? [[String: Any]])
            let characteristics = services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
            let descriptors = characteristics.flatMap { $0["descriptors"] as? [[String: Any]] ?? [] }
            for entry in services + characteristics + descriptors {
                #expect(entry["name"] as? String != "unknown", "\(device): \(entry)")
            }
        }
        let tag = try await cli.run("connect", "BC:6A:29:00:00:03")
        let service = tag.stdout.split(separator: "\n").first { $0.hasPrefix("F000AA00-0451-4000-B000-000000000000") }
        #expect(service?.contains(" SensorTag IR Temperature Service") == true, "\(tag)")
    }

    @Test func versionSaysWhereTheNamesComeFrom() async throws {
        // When asking for the version
        let cli = try CLI()
        defer { cli.cleanUp() }
        let version = try await cli.run("--version")

        // Then it names the assigned-numbers lists the tables were generated from
        #expect(version.status == 0, "\(version)")
        #expect(version.stdout.contains("UUID names: Bluetooth SIG assigned numbers"))
        #expect(version.stdout.contains("company names: "))
    }

    @Test func subscribeTimesHaveMicrosecondsAndNoFloatNoise() async throws {
        // Given the CLI on the simulated world
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When following the battery level, as text and as JSON Lines
        let text = try await cli.run("subscribe", World.battery, "battery", "battery-level", "--count", "2")
        let json = try await cli.run("subscribe", World.battery, "battery", "battery-level", "--count", "2", "--json")

        // Then every time is seconds to the microsecond, in the text and as written in the JSON
        #expect(text.status == 0, "\(text)")
        let textTimes = text.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        #expect(textTimes.count == 2)
        for time in textTimes {
            #expect(time.hasSuffix("s") && Self.isMicroseconds(time.dropLast()), "\(time)")
        }
        #expect(json.status == 0, "\(json)")
        let jsonTimes = json.stdout.split(separator: "\n").compactMap { line in
            line.firstMatch(of: #/"time":([0-9.eE+-]+)/#).map { String($0.1) }
        }
        #expect(jsonTimes.count == 2, "\(json)")
        for time in jsonTimes { #expect(Self.isMicroseconds(time), "\(time)") }
    }

    @Test func sensorTagTimesHaveMicrosecondsAndNoFloatNoise() async throws {
        // Given the CLI on the simulated world
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When reading the SensorTag as JSON Lines and as a table
        let json = try await cli.run("sensortag", "--count", "1", "--json")
        let table = try await cli.run("sensortag", "--count", "1")

        // Then each time is seconds to the microsecond
        #expect(json.status == 0, "\(json)")
        let times = json.stdout.split(separator: "\n").compactMap { line in
            line.firstMatch(of: #/"time":([0-9.eE+-]+)/#).map { String($0.1) }
        }
        #expect(!times.isEmpty, "\(json)")
        for time in times { #expect(Self.isMicroseconds(time), "\(time)") }
        let header = try #require(table.stdout.split(separator: "\n").first, "\(table)")
        let match = try #require(header.wholeMatch(of: #/t = (\S+) s/#), "\(table)")
        #expect(Self.isMicroseconds(match.1), "\(header)")
    }

    @Test func thermostatSetSpeaksOneUnitPerLine() async throws {
        // Given the CLI on the simulated world, whose thermostat reports in Celsius
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When setting the set point in Fahrenheit
        let result = try await cli.run("thermostat", World.thermostat, "set", "75", "--unit", "fahrenheit")

        // Then the line gives the set point and the temperature both in Fahrenheit, to the hundredth
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("set point 75.00 °F; temperature now "), "\(result)")
        #expect(result.stdout.hasSuffix(" °F\n"), "\(result)")
        #expect(!result.stdout.contains("°C"), "\(result)")
        // And a set point out of range is refused with the range and an example in Fahrenheit
        let refused = try await cli.run("thermostat", World.thermostat, "set", "200", "--unit", "fahrenheit")
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("41.00 to 95.00 °F: write a value in that range, such as 70.70"), "\(refused)")
    }

    @Test func sensorTagPeriodAdviceSpeaksMilliseconds() async throws {
        // Given the CLI
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When the period is below the sensors' minimum, or not a whole number of 10 ms
        let short = try await cli.run("sensortag", "--period", "50ms")
        let uneven = try await cli.run("sensortag", "--period", "55ms")

        // Then each is refused with advice in milliseconds, the duration written as typed units
        #expect(short.status == 64, "\(short)")
        #expect(short.stderr.contains("write 100 ms or more"), "\(short)")
        #expect(uneven.status == 64, "\(uneven)")
        #expect(uneven.stderr.contains("period 0.055s"), "\(uneven)")
        #expect(uneven.stderr.contains("(try 50 ms)"), "\(uneven)")
        #expect(!uneven.stderr.contains("seconds"), "\(uneven)")
    }

    @Test func aBareNumberIsSecondsForEveryDurationFlag() async throws {
        // Given the CLI on the simulated world
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When every kind of duration flag is given a bare number
        let runs = [
            ["scan", "--timeout", "1"],
            ["connect", World.thermostat, "--connect-timeout", "3"],
            ["connect", World.thermostat, "--reconnect", "linear:1,2,3"],
            ["subscribe", World.battery, "battery", "battery-level", "--duration", "61", "--count", "1"],
            ["sensortag", "--count", "1", "--period", "1"],
            ["observe", "Test Server", "--demo", "--duration", "2", "--timeout", "2"],
        ]
        // Then each is accepted as seconds
        for arguments in runs {
            let result = try await cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
        }
        // And a malformed one is refused with the forms, the bare number among them
        let bad = try await cli.run("scan", "--timeout", "5 parsecs")
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("a bare number is seconds"), "\(bad)")
    }

    @Test func thePowerCycleSummarySaysOffAndOn() async throws {
        // Given the power-cycle scenario
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When it runs
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let file = root.appendingPathComponent("Simulations/adapter-power-cycle.yaml").path
        let result = try await cli.run("simulate", file)

        // Then its summary says which way the adapter went, each time
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("t=5s adapterStateChanged off\n"), "\(result)")
        #expect(result.stdout.contains("t=10s adapterStateChanged on\n"), "\(result)")
    }
}
