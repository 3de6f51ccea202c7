import Foundation
import Testing

/// `airlink pair`: pairs on sim, prints the result (text or JSON), keeps the bond in the registry, and exits 1
/// with the typed error when pairing fails.
@Suite struct PairCommandTests {
    @Test(arguments: ["devices.json", "sqlite:devices.sqlite"])
    func pairingKeepsTheBondInTheRegistry(_ registry: String) async throws {
        // Given an empty registry
        let cli = try CLI()
        defer { cli.cleanUp() }
        let flag =
            registry.hasPrefix("sqlite:")
            ? "sqlite:" + cli.directory + "/" + registry.dropFirst(7) : cli.directory + "/" + registry

        // When the app pairs with the thermostat (no display, no keyboard: Just Works)
        let result = try await cli.run("pair", World.thermostat, "--registry", flag, "--json")

        // Then it paired Just Works at level 2, bonded, and the registry holds the device with its bond
        #expect(result.status == 0, "\(result)")
        let object = try #require(try result.json() as? [String: Any], "\(result)")
        #expect(object["method"] as? String == "just works")
        #expect(object["level"] as? Int == 2 && object["keySize"] as? Int == 16 && object["bonded"] as? Bool == true)
        let devices = try await cli.run("devices", "--registry", flag, "--json")
        let rows = try #require(try devices.json() as? [[String: Any]], "\(devices)")
        #expect((rows.first?["bond"] as? [String: Any])?["level"] as? Int == 2, "\(devices)")
    }

    @Test func devicesJSONShowsABondsTimeToTheMicrosecondAtMost() async throws {
        // Given a registry holding a bond whose time has sub-microsecond digits (as a wall clock's Double has)
        let cli = try CLI()
        defer { cli.cleanUp() }
        let path = cli.directory + "/devices.json"
        let paired = try await cli.run("pair", World.thermostat, "--registry", path)
        #expect(paired.status == 0, "\(paired)")
        let stored = try String(contentsOfFile: path, encoding: .utf8)
        let edited = stored.replacing(#/"bonded"\s*:\s*[0-9.e+]+/#) { _ in "\"bonded\" : 1767225600.1234567" }
        #expect(edited != stored, "\(stored)")
        try edited.write(toFile: path, atomically: true, encoding: .utf8)

        // When devices lists it as JSON
        let devices = try await cli.run("devices", "--registry", path, "--json")

        // Then the bond's time has six decimals at most, rounded to the microsecond, as CLI.md says of every time
        #expect(devices.status == 0, "\(devices)")
        #expect(devices.stdout.contains("\"bonded\" : 1767225600.123457"), "\(devices.stdout)")
        #expect(!devices.stdout.contains("1767225600.1234567"), "\(devices.stdout)")
    }

    @Test func aPasskeyADeviceWithoutADisplayCannotCheckFailsTyped() async throws {
        // Given the thermostat, which has neither display nor keyboard
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When the app asks for passkey entry (MITM protection)
        let result = try await cli.run(
            "pair", World.thermostat, "--passkey", "123456", "--registry", cli.directory + "/d.json")

        // Then pairing fails with Authentication Requirements, exit 1
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("pairingFailed") && result.stderr.contains("Authentication Requirements (0x03)"))
    }
}
