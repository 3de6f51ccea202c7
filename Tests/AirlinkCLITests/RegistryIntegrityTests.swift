import Foundation
import Testing

/// The registry never loses or damages data across invocations: concurrent connections all count,
/// one device keeps one record whatever the user types, and a damaged time stamps nothing.
@Suite struct RegistryIntegrityTests {
    /// Pairs of `airlink connect` run at once.
    static let pairs = 20

    /// `--registry` for a file in `cli`'s directory: JSON, or SQLite with the `sqlite:` prefix.
    static func flag(_ registry: String, in cli: CLI) -> String {
        registry.hasPrefix("sqlite:")
            ? "sqlite:" + cli.directory + "/" + registry.dropFirst(7) : cli.directory + "/" + registry
    }

    @Test(arguments: ["devices.json", "sqlite:devices.sqlite"])
    func concurrentConnectionsToOneDeviceAreAllCounted(_ registry: String) async throws {
        // Given a registry
        let cli = try CLI()
        defer { cli.cleanUp() }
        let flag = Self.flag(registry, in: cli)

        // When pairs of `airlink connect` to the battery run at the same time, pair after pair
        for pair in 1...Self.pairs {
            let running = try (0..<2).map { _ in try cli.start(["connect", World.battery, "--registry", flag]) }
            for process in running {
                let result = try await process.wait()
                #expect(result.status == 0, "pair \(pair): \(result)")
            }
        }

        // Then the registry counted every connection, in one record
        let devices = try await cli.run("devices", "--registry", flag, "--json")
        let rows = try #require(try devices.json() as? [[String: Any]], "\(devices)")
        #expect(rows.map { $0["id"] as? String } == [World.battery])
        #expect(rows.first?["connections"] as? Int == 2 * Self.pairs)
    }

    @Test(arguments: ["devices.json", "sqlite:devices.sqlite"])
    func aTypedAddressTypeThatContradictsTheDeviceMakesNoSecondRecord(_ registry: String) async throws {
        // Given the thermostat (a public address) connected once
        let cli = try CLI()
        defer { cli.cleanUp() }
        let flag = Self.flag(registry, in: cli)
        #expect(try await cli.run("connect", World.thermostat, "--registry", flag).status == 0)

        // When connecting to it as a random address, then as /public, then forgetting it as /random
        let random = try await cli.run("connect", World.thermostat + "/random", "--registry", flag)
        let typed = try await cli.run("connect", World.thermostat + "/public", "--registry", flag)
        let forget = try await cli.run("forget", World.thermostat + "/random", "--registry", flag)

        // Then /random is refused naming the real type; /public is the same device
        #expect(random.status == 1, "\(random)")
        #expect(random.stderr.contains("has a public address (known as \(World.thermostat))"), "\(random)")
        #expect(typed.status == 0, "\(typed)")
        #expect(forget.status == 1 && forget.stderr.contains("has a public address"), "\(forget)")
        // And the registry holds one record of it, two connections, its type shown
        let devices = try await cli.run("devices", "--registry", flag, "--json")
        let rows = try #require(try devices.json() as? [[String: Any]], "\(devices)")
        #expect(rows.map { $0["id"] as? String } == [World.thermostat])
        #expect(rows.first?["addressType"] as? String == "public")
        #expect(rows.first?["connections"] as? Int == 2)
        let table = try await cli.run("devices", "--registry", flag)
        #expect(table.stdout.split(separator: "\n").first?.hasPrefix("ID                 TYPE") == true, "\(table)")
    }

    @Test func anAddressAloneNamesItsOneRecordAndSeveralAreListed() async throws {
        // Given a registry file an older Airlink wrote, holding the thermostat twice: public and random
        let cli = try CLI()
        defer { cli.cleanUp() }
        let path = cli.directory + "/devices.json"
        try Self.registryFile([
            (World.thermostat, 1_767_225_600, 3), (World.thermostat + "/random", 1_767_225_601, 2),
        ]).write(to: URL(fileURLWithPath: path))

        // When connecting by the address alone, forgetting the random one, and connecting again
        let ambiguous = try await cli.run("connect", World.thermostat, "--registry", path)
        let forget = try await cli.run("forget", World.thermostat + "/random", "--registry", path)
        let again = try await cli.run("connect", World.thermostat, "--registry", path)

        // Then the address alone was refused listing both; after forgetting one it names the other
        #expect(ambiguous.status == 1, "\(ambiguous)")
        #expect(
            ambiguous.stderr.contains("names several devices: \(World.thermostat), \(World.thermostat)/random"),
            "\(ambiguous)")
        #expect(forget.status == 0, "\(forget)")
        #expect(again.status == 0, "\(again)")
        let rows = try #require(try await cli.run("devices", "--registry", path, "--json").json() as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String } == [World.thermostat])
        #expect(rows.first?["connections"] as? Int == 4)
    }

    @Test func aRecordFarInTheFutureStampsNoNewRecord() async throws {
        // Given a registry whose newest record claims year 9000 (a valid time, but not a plausible one)
        let cli = try CLI()
        defer { cli.cleanUp() }
        let path = cli.directory + "/devices.json"
        try Self.registryFile([(World.thermostat, 221_845_392_000, 1)]).write(to: URL(fileURLWithPath: path))

        // When connecting to the battery
        let result = try await cli.run("connect", World.battery, "--registry", path)

        // Then the battery's record carries today's time, not one after year 9000
        #expect(result.status == 0, "\(result)")
        let rows = try #require(try await cli.run("devices", "--registry", path, "--json").json() as? [[String: Any]])
        let battery = try #require(rows.first { $0["id"] as? String == World.battery })
        let year = (battery["lastConnected"] as? String)?.prefix(4)
        #expect(year.flatMap { Int($0) }.map { $0 < 2200 } == true, "\(rows)")
    }

    /// A registry file holding records of `(id, lastConnected, connectionCount)`.
    static func registryFile(_ records: [(String, Double, Int)]) -> Data {
        let devices = records.map { id, time, count in
            #"{"id": "\#(id)", "services": [], "firstConnected": \#(time), "lastConnected": \#(time), "#
                + #""connectionCount": \#(count)}"#
        }
        return Data(
            (#"{"format": "airlink-device-registry", "schemaVersion": 1, "devices": ["#
                + devices.joined(separator: ", ") + "]}").utf8)
    }
}
