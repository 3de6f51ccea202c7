import AirlinkCore
import AirlinkProfiles
import Foundation
import Testing

/// connect, read, write and subscribe on the built-in simulated world, run as a user runs them.
@Suite struct CentralCommandTests {
    @Test func connectPrintsTheLinkAndTheServices() async throws {
        // Given the CLI on the simulated world
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When connecting to the thermostat, as a table and as JSON
        let table = try await cli.run("connect", World.thermostat)
        let json = try await cli.run("connect", World.thermostat, "--json")

        // Then the table shows the MTU and the thermostat's services and characteristics
        #expect(table.status == 0, "\(table)")
        #expect(table.stdout.contains("Connected to \(World.thermostat)"))
        #expect(table.stdout.contains("MTU "))
        #expect(table.stdout.contains("\(World.temperatureService)    Thermostat Temperature Service"))
        #expect(table.stdout.contains("\(World.temperature)  Thermostat Temperature"))
        // And the JSON has the MTU, the write limit it implies, and services with characteristics
        let object = try #require(try json.json() as? [String: Any], "\(json)")
        let mtu = try #require(object["mtu"] as? Int)
        #expect(mtu >= 23)
        #expect(object["maximumWriteWithoutResponse"] as? Int == mtu - 3)
        let services = try #require(object["services"] as? [[String: Any]])
        let temperature = try #require(services.first { $0["uuid"] as? String == World.temperatureService })
        let characteristics = try #require(temperature["characteristics"] as? [[String: Any]])
        let reading = try #require(characteristics.first { $0["uuid"] as? String == World.temperature })
        #expect(reading["properties"] as? [String] == ["read", "write", "notify"])
    }

    @Test func readPrintsHexAndTheTypedValue() async throws {
        // Given the CLI, and what the library reads on the same world
        let cli = try CLI()
        defer { cli.cleanUp() }
        let temperature = try await Oracle.read(
            DeviceID(stringLiteral: World.thermostat), .thermostatTemperatureService, .thermostatTemperature)
        let level = try await Oracle.read(DeviceID(stringLiteral: World.battery), .battery, .batteryLevel)

        // When reading by UUID, and by assigned name with a format and JSON
        let byUUID = try await cli.run(
            "read", World.thermostat, World.temperatureService, World.temperature, "--format", "int16")
        let byName = try await cli.run("read", World.battery, "battery", "battery-level", "--format", "uint8", "--json")

        // Then both print what the library read: hex, and the typed value
        #expect(byUUID.status == 0, "\(byUUID)")
        #expect(byUUID.stdout == "\(hex(temperature)) (int16 \(try Int16(gattBytes: temperature)))\n")
        let object = try #require(try byName.json() as? [String: String], "\(byName)")
        #expect(
            object == [
                "device": World.battery, "service": "180F", "characteristic": "2A19", "hex": hex(level),
                "format": "uint8", "value": String(try UInt8(gattBytes: level)),
            ])
    }

    @Test func writeSendsTypedAndHexValues() async throws {
        // Given the CLI on the simulated world
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When writing a set point typed as int16, and the unit as hex
        let typed = try await cli.run(
            "write", World.thermostat, World.temperatureService, World.temperature, "2500", "--format", "int16")
        let raw = try await cli.run(
            "write", World.thermostat, World.temperatureService, "68753A44-4D6F-1226-9C60-0050E4C00068", "0x01",
            "--json")

        // Then both succeed and report the bytes sent (2500 little-endian: 0xc409)
        #expect(typed.status == 0, "\(typed)")
        #expect(typed.stdout.contains("Wrote \(hex(Int16(2500).gattBytes)) to \(World.temperature)"))
        let object = try #require(try raw.json() as? [String: String], "\(raw)")
        #expect(object["hex"] == "0x01")
        #expect(object["type"] == "with-response")
    }

    @Test func writingWhatCannotBeWrittenFailsWithTheReason() async throws {
        // Given the CLI on the simulated world
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When writing the battery level, which is read and notify only
        let result = try await cli.run("write", World.battery, "battery", "battery-level", "0x10")

        // Then the command fails at run time, saying why
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("cannot be written"))
    }

    @Test func subscribeStreamsTheNotifiedValuesInVirtualTime() async throws {
        // Given the CLI, and the first values the library receives on the same world
        let cli = try CLI()
        defer { cli.cleanUp() }
        let expected = try await Oracle.notifications(
            DeviceID(stringLiteral: World.battery), .battery, .batteryLevel, count: 3)

        // When subscribing to the battery level for three values, as text and as JSON lines
        let text = try await cli.run(
            "subscribe", World.battery, "battery", "battery-level", "--count", "3", "--format", "uint8")
        let json = try await cli.run("subscribe", World.battery, "battery", "battery-level", "--count", "3", "--json")

        // Then each prints the same three values, one a line, with their virtual times increasing
        #expect(text.status == 0, "\(text)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        for (line, bytes) in zip(lines, expected) {
            #expect(line.hasSuffix("\(hex(bytes)) (uint8 \(try UInt8(gattBytes: bytes)))"))
        }
        let objects = try json.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.compactMap { $0["hex"] as? String } == expected.map(hex))
        let times = objects.compactMap { $0["time"] as? Double }
        #expect(times.count == 3 && times == times.sorted() && Set(times).count == 3)
    }

    @Test func subscribeWithADurationStopsInVirtualTime() async throws {
        // Given the CLI, and a characteristic that notifies once a minute
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When subscribing for 150 virtual seconds, asking for more values than come
        let result = try await cli.run(
            "subscribe", World.battery, "battery", "battery-level", "--duration", "150s", "--count", "10")

        // Then two values are printed and the command says fewer came than asked
        #expect(result.status == 3, "\(result)")
        #expect(result.stdout.split(separator: "\n").count == 2)
        #expect(result.stderr.contains("received 2 of 10"))
    }
}
