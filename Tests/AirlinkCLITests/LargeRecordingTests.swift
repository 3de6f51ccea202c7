import Foundation
import Testing

/// A recording far larger than a real device's, within its limits: its replay serves the whole database.
@Suite struct LargeRecordingTests {
    /// A recording of `count` services of one readable characteristic each, after handle 0x000F.
    static func recording(services count: Int) -> String {
        var lines = [
            "recording: 1", "name: \"Big\"", "id: \"C0:FF:EE:00:00:09\"", "transport: \"sim\"", "advertising:",
            "  interval: 0.1s", "  connectable: true", "  data: \"0201060409426967\"", "services:",
        ]
        for index in 0..<count {
            let handle = 0x10 + 3 * index
            lines += [
                "  - uuid: \"\(String(0xA000 + index, radix: 16, uppercase: true))\"",
                "    handles: [\(handle), \(handle + 2)]", "    characteristics:",
                "      - uuid: \"\(String(0xB000 + index, radix: 16, uppercase: true))\"",
                "        handle: \(handle + 1)", "        valueHandle: \(handle + 2)", "        properties: [read]",
                "        value: \"01\"",
            ]
        }
        lines += ["session:", "  duration: 1s", "  subscribed: []", "  notifications: []"]
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aRecordingOfThreeThousandServicesConnectsAndListsThemAll() async throws {
        // Given a recording of 3,000 services (0.6 MB, under the 16 MiB a recording may take)
        let cli = try CLI()
        defer { cli.cleanUp() }
        let path = cli.directory + "/big.yaml"
        try Self.recording(services: 3_000).write(toFile: path, atomically: true, encoding: .utf8)

        // When `connect` replays it, listing the database as JSON
        let result = try await cli.run("connect", "C0:FF:EE:00:00:09", "--transport", "sim:" + path, "--json")

        // Then every service is listed with its characteristic, the recorded ones after GAP and GATT
        #expect(result.status == 0, "\(result)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let services = try #require(report["services"] as? [[String: Any]])
        #expect(services.count == 3_002)
        let recorded = services.filter { ($0["uuid"] as? String)?.hasPrefix("A") == true }
        #expect(recorded.count == 3_000)
        #expect(recorded.allSatisfy { ($0["characteristics"] as? [Any])?.count == 1 })
    }
}
