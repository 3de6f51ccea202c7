import AirlinkBlueZTestSupport
import Foundation
import Testing

/// Names and what a scan shows (Docs/CLI.md), on the BlueZ backend against the fake BlueZ: a service both
/// advertised and carrying service data is listed once, manufacturer data is shown, `--passive` is
/// refused (BlueZ always scans actively), and `connect` lists descriptors.
@Suite(.fakeBlueZ(), .serialized) struct NamesOnBlueZTests {
    @Test func scanListsEachServiceOnceAndTheManufacturerData() async throws {
        // Given the fake BlueZ, whose battery advertises 180F and carries service data for 180F, and whose
        // thermostat carries manufacturer data A1 B2 under company 0xFFFF
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }

        // When scanning, as JSON and as a table
        let json = try await cli.run("scan", "--transport", "bluez", "--timeout", "1s", "--json")
        let table = try await cli.run("scan", "--transport", "bluez", "--timeout", "1s")

        // Then the battery's 180F is listed once, and the thermostat's manufacturer data is shown
        #expect(json.status == 0, "\(json)")
        let devices = try #require(try json.json() as? [[String: Any]], "\(json)")
        let battery = try #require(devices.first { ($0["id"] as? String)?.hasPrefix("F4:77:E2:00:00:02") == true })
        let uuids = (battery["services"] as? [[String: Any]])?.compactMap { $0["uuid"] as? String }
        #expect(uuids == ["180F"])
        let thermostat = try #require(devices.first { $0["id"] as? String == World.thermostat })
        let data = try #require(thermostat["manufacturerData"] as? [[String: Any]])
        #expect(data.first?["companyID"] as? String == "0xFFFF")
        #expect(data.first?["hex"] as? String == "0xa1b2")
        #expect(table.status == 0, "\(table)")
        let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("F4:77:E2:00:00:02") })
        #expect(row.components(separatedBy: "180F (Battery Service)").count == 2, "\(table)")
        #expect(table.stdout.contains("0xFFFF: 0xa1b2"), "\(table)")
    }

    @Test func aPassiveScanIsRefusedOnBlueZ() async throws {
        // Given the fake BlueZ
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }

        // When asking for a passive scan
        let result = try await cli.run("scan", "--transport", "bluez", "--passive", "--timeout", "1s")

        // Then it is refused before scanning, saying why and what to type
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--passive works on --transport sim only"), "\(result)")
    }

    @Test func connectListsDescriptorsOnBlueZ() async throws {
        // Given the fake BlueZ, which knows the battery once a scan saw it
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        #expect(try await cli.run("scan", "--transport", "bluez", "--timeout", "500ms").status == 0)

        // When connecting to it
        let result = try await cli.run(
            "connect", "F4:77:E2:00:00:02", "--transport", "bluez", "--json",
            "--registry", cli.directory + "/devices.json")

        // Then the battery level lists its CCCD
        #expect(result.status == 0, "\(result)")
        let object = try #require(try result.json() as? [String: Any], "\(result)")
        let services = try #require(object["services"] as? [[String: Any]])
        let battery = try #require(services.first { $0["uuid"] as? String == "180F" }, "\(result)")
        let level = try #require((battery["characteristics"] as? [[String: Any]])?.first, "\(result)")
        #expect(
            level["descriptors"] as? [[String: String]] == [
                ["uuid": "2902", "name": "Client Characteristic Configuration"]
            ])
    }
}
