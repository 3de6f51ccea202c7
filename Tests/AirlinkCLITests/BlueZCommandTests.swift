import AirlinkBlueZTestSupport
import Foundation
import Testing

/// The CLI on the BlueZ backend, against the fake BlueZ of Tests/Fixtures/bluez (its own private
/// bus, named to `airlink` through DBUS_SYSTEM_BUS_ADDRESS as a real system bus would be).
@Suite(.fakeBlueZ(), .serialized) struct BlueZCommandTests {
    @Test func scanListsTheFixturesDevices() async throws {
        // Given the fake BlueZ with the thermostat and the battery
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }

        // When scanning with --transport bluez, and through AIRLINK_TRANSPORT
        let flag = try await cli.run("scan", "--transport", "bluez", "--timeout", "1s", "--json")
        let variable = try await cli.run(["scan", "--timeout", "1s"], environment: ["AIRLINK_TRANSPORT": "bluez:hci0"])

        // Then both list the fixture's two devices, with their names and advertised services
        #expect(flag.status == 0, "\(flag)")
        let devices = try #require(try flag.json() as? [[String: Any]], "\(flag)")
        let ids = devices.compactMap { $0["id"] as? String }
        #expect(ids.contains(World.thermostat))
        #expect(ids.contains { $0.hasPrefix("F4:77:E2:00:00:02") })
        let thermostat = try #require(devices.first { $0["id"] as? String == World.thermostat })
        let services = (thermostat["services"] as? [[String: Any]])?.compactMap { $0["uuid"] as? String }
        #expect(services?.contains(World.temperatureService) == true)
        #expect(variable.status == 0, "\(variable)")
        #expect(variable.stdout.contains(World.thermostat))
    }

    @Test func readWorksOnBlueZWithTheSameCommand() async throws {
        // Given the fake BlueZ, which knows the thermostat once a scan saw it (as BlueZ does; a
        // cached or paired device needs no scan)
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        #expect(try await cli.run("scan", "--transport", "bluez", "--timeout", "500ms").status == 0)

        // When reading the temperature with the command used on sim, and --transport bluez
        let result = try await cli.run(
            "read", World.thermostat, World.temperatureService, World.temperature, "--format", "int16",
            "--transport", "bluez", "--registry", cli.directory + "/devices.json")

        // Then it prints a value in the same shape, and the connection was remembered
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("0x") && result.stdout.contains("(int16 "))
        let devices = try await cli.run("devices", "--registry", cli.directory + "/devices.json", "--json")
        let rows = try #require(try devices.json() as? [[String: Any]], "\(devices)")
        #expect(rows.compactMap { $0["id"] as? String } == [World.thermostat])
    }

    @Test func aReadFromAStaleBlueZCacheWarnsWithoutVerbose() async throws {
        // Given a sensor with a Database Hash, read once through the CLI so that the registry caches its database
        let fake = try await FakeBlueZ.fresh()
        let sensor = "C0:FF:EE:00:00:5C"
        func services(hash: String, reading: String, inserted: Bool) -> String {
            let extra = inserted ? #"{"uuid": "FFF2", "flags": ["read"], "value": "ee"},"# : ""
            return #"""
                [{"uuid": "1801", "characteristics": [{"uuid": "2B2A", "flags": ["read"], "value": "\#(hash)"}]},
                 {"uuid": "FFF0", "characteristics": [\#(extra)
                  {"uuid": "FFF1", "flags": ["read"], "value": "\#(reading)"}]}]
                """#
        }
        let (oldHash, newHash) = (String(repeating: "11", count: 16), String(repeating: "22", count: 16))
        _ = try await fake.addPeripheral(
            json: #"{"name": "Sensor", "address": "\#(sensor)", "rssi": -50, "services": "#
                + services(hash: oldHash, reading: "01", inserted: false) + "}")
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        let registry = cli.directory + "/devices.json"
        #expect(try await cli.run("scan", "--transport", "bluez", "--timeout", "500ms").status == 0)
        let read = ["read", sensor, "FFF0", "FFF1", "--transport", "bluez", "--registry", registry]
        let first = try await cli.run(read)
        #expect(first.status == 0 && !first.stderr.contains("warning"), "\(first)")

        // When its firmware changes the hash while BlueZ keeps serving its old objects, and it is read again
        try await fake.staleCache(
            FakeBlueZ.devicePath(sensor), json: services(hash: newHash, reading: "02", inserted: true))
        let stale = try await cli.run(read)

        // Then the read succeeds, and without --verbose a warning on standard error says the value may be old and
        // how to drop BlueZ's copy
        #expect(stale.status == 0, "\(stale)")
        let warning = try #require(
            stale.stderr.split(separator: "\n").first { $0.hasPrefix("warning: BlueZ's cache of \(sensor)") },
            "\(stale)")
        #expect(warning.contains("stale (hashMismatch") && warning.contains("airlink refresh-cache \(sensor)"))
    }

    @Test func refreshCacheRemovesTheDeviceFromBlueZAndDiscoversItAgain() async throws {
        // Given the thermostat connected once through the CLI, so that the registry caches its database
        let fake = try await FakeBlueZ.fresh()
        let (cli, registry) = try await CLI.thermostatConnectedOnce(on: fake)
        defer { cli.cleanUp() }

        // When refreshing its cache
        let result = try await cli.run(
            "refresh-cache", World.thermostat, "--transport", "bluez", "--registry", registry, "--scan-timeout", "2s",
            "--json")

        // Then BlueZ was asked to remove it, it was found again by a scan, and its database discovered anew
        #expect(result.status == 0, "\(result)")
        let report = try #require(try result.json() as? [String: Any], "\(result)")
        #expect(report["registryCacheDropped"] as? Bool == true)
        #expect(report["stackCacheDropped"] as? Bool == true)
        #expect(report["services"] as? Int == 3)  // Generic Attribute (bluetoothd exports it) and the thermostat's two
        let log = try await fake.callLog().compactMap { $0["method"] as? String }
        let removed = try #require(log.lastIndex(of: "RemoveDevice"), "\(log)")
        #expect(log[removed...].contains("StartDiscovery") && log[removed...].contains("Connect"))
        let devices = try await cli.run("devices", "--registry", registry, "--json")
        let rows = try #require(try devices.json() as? [[String: Any]], "\(devices)")
        #expect(rows.first?["cachedDatabase"] != nil, "\(devices)")
    }
}
