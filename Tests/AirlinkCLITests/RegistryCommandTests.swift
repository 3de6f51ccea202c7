import Foundation
import Testing

/// devices, forget and connect --last: the registry file carries memory across invocations (each
/// invocation on sim is a new simulation).
@Suite struct RegistryCommandTests {
    @Test(arguments: ["devices.json", "sqlite:devices.sqlite"])
    func aConnectionIsRememberedAndConnectLastUsesIt(_ registry: String) async throws {
        // Given an empty registry in a temporary directory
        let cli = try CLI()
        defer { cli.cleanUp() }
        let flag =
            registry.hasPrefix("sqlite:")
            ? "sqlite:" + cli.directory + "/" + registry.dropFirst(7) : cli.directory + "/" + registry
        let empty = try await cli.run("connect", "--last", "--registry", flag)
        #expect(empty.status == 1, "\(empty)")
        #expect(empty.stderr.contains("remembers no device"))

        // When connecting to the battery, then asking for the last device
        let first = try await cli.run("connect", World.battery, "--registry", flag)
        #expect(first.status == 0, "\(first)")
        let last = try await cli.run("connect", "--last", "--registry", flag, "--json")

        // Then connect --last connected to the battery
        #expect(last.status == 0, "\(last)")
        let object = try #require(try last.json() as? [String: Any], "\(last)")
        #expect(object["device"] as? String == World.battery)
        // And the registry lists it, with two connections and the services seen
        let devices = try await cli.run("devices", "--registry", flag, "--json")
        let rows = try #require(try devices.json() as? [[String: Any]], "\(devices)")
        #expect(rows.count == 1)
        #expect(rows.first?["id"] as? String == World.battery)
        #expect(rows.first?["connections"] as? Int == 2)
        #expect((rows.first?["services"] as? [String])?.contains("180F") == true)
    }

    @Test func devicesListsTheMostRecentFirstAndForgetRemoves() async throws {
        // Given two devices connected in turn, in the default registry (the data directory)
        let cli = try CLI()
        defer { cli.cleanUp() }
        #expect(try await cli.run("connect", World.thermostat).status == 0)
        #expect(try await cli.run("connect", World.battery).status == 0)

        // When listing, forgetting the battery, and listing again
        let before = try await cli.run("devices")
        let forget = try await cli.run("forget", World.battery)
        let again = try await cli.run("forget", World.battery)
        let after = try await cli.run("devices", "--json")

        // Then the table named both, the battery first; the file sits in the data directory
        #expect(before.status == 0, "\(before)")
        let lines = before.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("ID") == true)
        #expect(lines.dropFirst().map { String($0.prefix(17)) } == [World.battery, World.thermostat])
        #expect(FileManager.default.fileExists(atPath: cli.directory + "/data/airlink/devices.json"))
        // And forget removed the battery once; a second forget says there was nothing to forget
        #expect(forget.status == 0 && forget.stdout.contains("Forgot \(World.battery)"))
        #expect(again.status == 2 && again.stderr.contains("nothing to forget"), "\(again)")
        let rows = try #require(try after.json() as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String } == [World.thermostat])
    }

    @Test func connectUsesTheCacheDevicesShowsItAndForgetCacheOnlyDropsItKeepingTheDevice() async throws {
        // Given a connection to the thermostat recorded in the default registry
        let cli = try CLI()
        defer { cli.cleanUp() }
        let first = try await cli.run("connect", World.thermostat)
        #expect(first.status == 0 && first.stdout.contains("GATT database: discovered"), "\(first)")

        // When connecting again (another process), listing, dropping the cache alone (twice), and listing again
        let second = try await cli.run("connect", World.thermostat, "--json")
        let before = try await cli.run("devices", "--json")
        let table = try await cli.run("devices")
        let drop = try await cli.run("forget", World.thermostat, "--cache-only")
        let again = try await cli.run("forget", World.thermostat, "--cache-only", "--json")
        let after = try await cli.run("devices", "--json")

        // Then the second connection used the cache, its hash matching
        #expect((try second.json() as? [String: Any])?["databaseCache"] as? String == "hashMatched", "\(second)")
        // And the listing showed the cached database and its 16-byte hash, in JSON and in the CACHE column
        let row = try #require((try before.json() as? [[String: Any]])?.first, "\(before)")
        #expect((row["databaseHash"] as? String)?.count == 32, "\(row)")
        #expect(((row["cachedDatabase"] as? [String: Any])?["services"] as? [Any])?.isEmpty == false, "\(row)")
        #expect(table.stdout.contains("CACHE") && table.stdout.contains("hash "), "\(table)")
        // And --cache-only dropped it once and kept the device
        #expect(drop.status == 0 && drop.stdout.contains("Dropped the cached GATT database"), "\(drop)")
        #expect(again.status == 2, "\(again)")
        #expect((try again.json() as? [String: Any])?["cacheOnly"] as? Bool == true)
        let rows = try #require(try after.json() as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String } == [World.thermostat])
        #expect(rows.first?["cachedDatabase"] == nil && rows.first?["databaseHash"] == nil)
    }
}
