import AirlinkBlueZTestSupport
import Foundation
import Testing

/// `airlink inspect --demo --protect`: the observer meets a protected value, is refused, pairs, and reads it;
/// the inspector's side prints the central asking to pair and the pairing.
@Suite struct InspectProtectTests {
    /// The messages of `lines` after their time stamps, in order.
    private func messages(_ text: String) -> [String] {
        text.split(separator: "\n").map { line in
            String(line.drop { $0 != "]" }.dropFirst(2))
        }
    }

    @Test func aProtectedValueIsRefusedThenReadAfterPairing() async throws {
        // Given the CLI
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When the demo protects label (encrypted link)
        let run = try await cli.run("inspect", "--demo", "--protect", "label", "--duration", "1s")

        // Then the observer's read is refused, the inspector hears a central asking to pair by Just Works and
        // the pairing, the observer pairs and reads label, in that order
        #expect(run.status == 0, "\(run)")
        let lines = messages(run.stdout)
        let expected = [
            "observer reads label: refused, Insufficient Encryption (0x0F)",
            "inspector: a central asks to pair: just works (5A:1A:00:00:00:02)",
            "inspector: paired with 5A:1A:00:00:00:02: just works, level 2 (encrypted) keySize=16 bonded",
            "observer paired: just works, level 2 (encrypted) keySize=16 bonded",
            "observer reads label (String) = \"kitchen\"",
        ]
        let start = try #require(lines.firstIndex(of: expected[0]), "\(run)")
        #expect(Array(lines[start..<min(lines.count, start + expected.count)]) == expected)
    }

    @Test func anAuthenticatedValueNeedsThePasskeyTheInspectorShows() async throws {
        // Given the CLI
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When the demo protects enabled with authentication
        let run = try await cli.run("inspect", "--demo", "--protect", "enabled:authenticated", "--duration", "1s")

        // Then the read is refused with Insufficient Authentication, the inspector displays a passkey, and the
        // pairing is passkey entry at level 4 before enabled is read
        #expect(run.status == 0, "\(run)")
        let lines = messages(run.stdout)
        #expect(lines.contains("observer reads enabled: refused, Insufficient Authentication (0x05)"), "\(run)")
        #expect(lines.contains { $0.hasPrefix("inspector displays passkey ") })
        #expect(
            lines.contains("inspector: a central asks to pair: passkey entry (peripheral displays) (5A:1A:00:00:00:02)")
        )
        let paired = try #require(lines.firstIndex { $0.hasPrefix("observer paired: passkey entry") }, "\(run)")
        #expect(lines[paired].contains("level 4 (authenticated Secure Connections)"))
        #expect(lines[paired + 1] == "observer reads enabled (Bool) = true")
    }

    @Test func theJSONLinesCarryThePairing() async throws {
        // Given the CLI, when the demo with a protected value runs with --json
        let cli = try CLI()
        defer { cli.cleanUp() }
        let run = try await cli.run("inspect", "--demo", "--protect", "label", "--duration", "1s", "--json")

        // Then the pairing request and the pairing are JSON lines with their times
        #expect(run.status == 0, "\(run)")
        let objects = try run.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let messages = objects.compactMap { $0["message"] as? String }
        #expect(messages.contains("inspector: a central asks to pair: just works (5A:1A:00:00:00:02)"), "\(run)")
        #expect(objects.allSatisfy { $0["time"] is Double })
    }
}
