import AirlinkTestSupport
import Foundation
import Testing

/// A recording far larger than a real device's, within its limits: its replay serves the whole database.
@Suite struct LargeRecordingTests {
    @Test func aRecordingOfThreeThousandServicesConnectsAndListsThemAll() async throws {
        // Given a recording of 3,000 services (0.6 MB, under the 16 MiB a recording may take)
        let cli = try CLI()
        defer { cli.cleanUp() }
        let path = cli.directory + "/big.yaml"
        try ReplayWorkloads.recording(services: 3_000).write(toFile: path, atomically: true, encoding: .utf8)

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
