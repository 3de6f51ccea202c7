import AirlinkTestKit
import Testing

/// A restoration of notifications after a reconnection leaves a characteristic to the app's own call when the app
/// changes its choice meanwhile; when that call fails, the app's earlier choice stands and is restored after it.
@Suite struct RestorationLeftToTheAppTests {
    /// The run of `Simulations/regressions/an-unsubscribe-during-a-restoration-is-the-last-word.yaml`, for 100 s:
    /// the app subscribes; the link drops at 87.95 s and the strategy reconnects at 90.22 s; the app unsubscribes at
    /// 90.313 s, while the restoration waits for the database's check. `fault` is a timeline entry after the drop.
    private static func scenario(fault: String) -> String {
        """
        seed: 211970
        duration: 100s
        central: {interval: 65ms, latency: 0, supervisionTimeout: 2405ms, mtu: 190}
        databaseCache: verified
        world:
        - name: P1
          id: E0:00:00:00:00:01
          advertising: {interval: 92ms}
          services:
          - uuid: F110
            characteristics:
            - {uuid: F111, properties: [read, notify], type: uint32, value: 0, updates: {every: 1256ms, add: 1}}
        timeline:
        - {at: 87953ms, do: dropLink, device: P1, reason: remote-power-off}
        \(fault)
        client:
        - device: P1
          connectAt: 589ms
          connectTimeout: 8911ms
          reconnection:
            linear: {wait: 1347ms, attempts: 1, timeout: 1649ms}
          subscribe:
          - {service: F110, characteristic: F111, type: uint32}
          unsubscribeAt: 90313ms
        """
    }

    /// The trace of ``scenario(fault:)``, where `fault` (if any) answers the first write after 90.3 s.
    private static func trace(unsubscribe fault: String) async throws -> [String] {
        try await ScenarioRunner().run(try Scenario.parse(scenario(fault: fault))).trace.lines
    }

    private static func index(of text: String, in lines: [String]) -> Int? {
        lines.firstIndex { $0.contains(text) }
    }

    @Test func anUnsubscribeThatFailsLeavesTheNotificationsRestored() async throws {
        // Given the run, with the unsubscribe's CCCD write refused by the peripheral
        let lines = try await Self.trace(
            unsubscribe:
                "- {at: 90300ms, do: respond, device: P1, operation: write, error: write-not-permitted, times: 1}")

        // Then the unsubscribe failed, so the app still wants them: the restoration it skipped enables them after it,
        // reports them restored, and values reach the app again; no restoration is reported as failed
        let failed = try #require(Self.index(of: "client unsubscribe F111 failed", in: lines))
        let restored = try #require(Self.index(of: "notificationsRestored F110/F111 notify", in: lines))
        let enabled = try #require(
            lines.lastIndex { $0.contains("peripheral E0:00:00:00:00:01") && $0.contains("notify=on") })
        #expect(enabled < restored)
        #expect(abs(restored - failed) <= 1, "\(lines[min(failed, restored)...max(failed, restored)])")
        #expect(lines[restored...].contains { $0.contains("client notified F111") })
        #expect(!lines.contains { $0.contains("notificationsRestoreFailed") })
    }

    @Test func anUnsubscribeThatSucceedsIsTheLastWord() async throws {
        // Given the run with no fault
        let lines = try await Self.trace(unsubscribe: "")

        // Then nothing is restored or reported failed, and no value reaches the app after its unsubscribe
        let unsubscribed = try #require(Self.index(of: "client unsubscribe F111", in: lines))
        #expect(!lines.contains { $0.contains("notificationsRestored") })
        #expect(!lines.contains { $0.contains("notificationsRestoreFailed") })
        #expect(!lines[unsubscribed...].contains { $0.contains("client notified F111") })
    }
}
