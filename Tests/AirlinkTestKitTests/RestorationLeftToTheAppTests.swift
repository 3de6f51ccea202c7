import AirlinkCore
import AirlinkSimulation
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

    /// The trace's records of ``scenario(fault:)``, where `fault` (if any) answers the first write after 90.3 s.
    private static func trace(unsubscribe fault: String) async throws -> [TraceRecord] {
        try await ScenarioRunner().run(try Scenario.parse(scenario(fault: fault))).trace.records
    }

    /// Whether `event` is the client's unsubscribe from F111: one that failed, or (`failed: nil`) either.
    private static func isUnsubscribe(_ event: TraceEvent, failed: Bool?) -> Bool {
        switch event {
        case .client(.unsubscribeFailed("F111", _)): failed != false
        case .client(.unsubscribed("F111")): failed != true
        default: false
        }
    }

    /// Whether `event` is a value of F111 reaching the client.
    private static func isNotified(_ event: TraceEvent) -> Bool {
        if case .client(.notified("F111", _, _)) = event { true } else { false }
    }

    /// Whether `event` reports notifications restored (of F110/F111 with `notify` if `only`).
    private static func isRestored(_ event: TraceEvent, only: Bool = false) -> Bool {
        guard
            case .layer(.event(.services(_, .notificationsRestored(let service, let characteristic, let mode)))) =
                event
        else { return false }
        return !only || (service == BluetoothUUID(0xF110) && characteristic == BluetoothUUID(0xF111) && mode == .notify)
    }

    /// Whether `event` reports a restoration that failed.
    private static func isRestoreFailed(_ event: TraceEvent) -> Bool {
        if case .layer(.event(.services(_, .notificationsRestoreFailed))) = event { true } else { false }
    }

    @Test func anUnsubscribeThatFailsLeavesTheNotificationsRestored() async throws {
        // Given the run, with the unsubscribe's CCCD write refused by the peripheral
        let lines = try await Self.trace(
            unsubscribe:
                "- {at: 90300ms, do: respond, device: P1, operation: write, error: write-not-permitted, times: 1}")

        // Then the unsubscribe failed, so the app still wants them: the restoration it skipped enables them after it,
        // reports them restored, and values reach the app again; no restoration is reported as failed
        let failed = try #require(lines.firstIndex { Self.isUnsubscribe($0.event, failed: true) })
        let restored = try #require(lines.firstIndex { Self.isRestored($0.event, only: true) })
        let enabled = try #require(
            lines.lastIndex { record in
                guard case .subscriptionChanged(_, let device, _, let notify, _) = record.event else { return false }
                return device.description == "E0:00:00:00:00:01" && notify
            })
        #expect(enabled < restored)
        #expect(abs(restored - failed) <= 1, "\(lines[min(failed, restored)...max(failed, restored)])")
        #expect(lines[restored...].contains { Self.isNotified($0.event) })
        #expect(!lines.contains { Self.isRestoreFailed($0.event) })
    }

    @Test func anUnsubscribeThatSucceedsIsTheLastWord() async throws {
        // Given the run with no fault
        let lines = try await Self.trace(unsubscribe: "")

        // Then nothing is restored or reported failed, and no value reaches the app after its unsubscribe
        let unsubscribed = try #require(lines.firstIndex { Self.isUnsubscribe($0.event, failed: nil) })
        #expect(!lines.contains { Self.isRestored($0.event) })
        #expect(!lines.contains { Self.isRestoreFailed($0.event) })
        #expect(!lines[unsubscribed...].contains { Self.isNotified($0.event) })
    }
}
