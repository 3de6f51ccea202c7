import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkTestKit

/// The oracles' rules that the regression scenarios of Simulations/regressions/ pin excuse only what they name: on
/// hand-built records, the same violation without the excusing fact still fails.
@Suite struct ExplorerOracleBoundsTests {
    typealias Shared = ExplorerOracleTests

    static func connect(start: Double, end: Double?, _ outcome: String) -> ScenarioOperationRecord {
        ScenarioOperationRecord(
            name: "connect \(Shared.device)", start: .milliseconds(Int(start * 1000)), timeout: .seconds(5),
            completions: end.map { [(.milliseconds(Int($0 * 1000)), outcome)] } ?? [])
    }

    @Test func terminatedAfterFailedToConnectPassesOnlyWhileAConnectIsPending() {
        // Given a connect that failed at 1 s, then terminated at 3 s
        let timeout = AirlinkError(.timeout, "connecting did not complete")
        let events = [Shared.event(1, .failedToConnect(timeout)), Shared.event(3, .terminated)]
        let client = Shared.client(.none)
        let failed = Self.connect(start: 0, end: 1, "failed: timeout")
        func judge(_ operations: [ScenarioOperationRecord]) -> [String] {
            TerminalEventOracle().violations(
                in: ExplorationObservation(end: .seconds(10), events: events, operations: operations, clients: [client])
            )
        }

        // When no connect is pending then, one started at 2 s is, or one started at 2 s ended at 2.5 s
        let alone = judge([failed])
        let pending = judge([failed, Self.connect(start: 2, end: 3, "failed: cancelled")])
        let over = judge([failed, Self.connect(start: 2, end: 2.5, "failed: timeout")])

        // Then only the pending connect excuses it
        #expect(alone == ["\(Shared.device): terminated at t=3s after failedToConnect at t=1s"], "\(alone)")
        #expect(pending.isEmpty, "\(pending)")
        #expect(over.count == 1, "\(over)")
    }

    /// Values on air at 1, 2 and 3 s; a subscribe from 0.5 s to 0.6 s; the app got the value at 1 s; the stream ended
    /// at 2.5 s; `events` besides the connection at 0.2 s.
    static func judgeStreamEndedEarly(_ events: [ScenarioEventRecord]) -> [String] {
        let received = ScenarioObservedValue(
            time: .seconds(1), device: Shared.device, service: BluetoothUUID(0xF110),
            characteristic: BluetoothUUID(0xF111), bytes: [1], notified: true, missedBefore: 0)
        return NotificationOracle().violations(
            in: ExplorationObservation(
                end: .seconds(10), events: [Shared.event(0.2, .connected(Shared.link))] + events,
                operations: [Shared.operation("subscribe F111", start: 0.5, timeout: 30, ends: [0.6])],
                values: [received],
                streamEnds: [
                    ScenarioStreamEnd(time: .milliseconds(2500), device: Shared.device, characteristic: .init(0xF111))
                ],
                records: Shared.notifiedOnAir(at: [1, 2, 3]), clients: [Shared.client(.none, subscribed: ["F111"])]))
    }

    @Test func aStreamEndingAtTerminatedStillOwesTheValuesBeforeIt() {
        // Given the stream ended at the app's disconnect (terminated at 2.5 s), and the value sent at 2 s never came
        let violations = Self.judgeStreamEndedEarly([Shared.event(2.5, .terminated)])

        // Then the end is explained and the later value excused, but the value at 2 s is lost
        #expect(violations.count == 1, "\(violations)")
        #expect(violations.contains { $0.contains("1 value(s) on air never reached the app") && $0.contains("t=2s") })
    }

    @Test func aStreamEndingWithNoTerminatedBeforeALossFails() {
        // Given the stream ended at 2.5 s and the link was lost (no strategy) at 5 s, with no terminated before
        let violations = Self.judgeStreamEndedEarly([Shared.event(5, .lost(Shared.loss))])

        // Then the early end is named
        #expect(violations.contains { $0.contains("before lost at t=5s") }, "\(violations)")
    }

    @Test func aLossAfterTheStreamWasAskedForStillEndsIt() {
        // Given a loss (no strategy) at 0.3 s, before the subscribe at 0.5 s, another connection at 0.4 s, and a
        // loss at 5 s; the stream never ended
        let observation = ExplorationObservation(
            end: .seconds(10),
            events: [
                Shared.event(0.2, .connected(Shared.link)), Shared.event(0.3, .lost(Shared.loss)),
                Shared.event(0.4, .connected(Shared.link)), Shared.event(5, .lost(Shared.loss)),
            ],
            operations: [Shared.operation("subscribe F111", start: 0.5, timeout: 30, ends: [0.6])],
            clients: [Shared.client(.none, subscribed: ["F111"])])

        // When the notifications oracle judges it
        let violations = NotificationOracle().violations(in: observation)

        // Then the loss at 5 s is the one the stream did not end after
        #expect(violations == ["\(Shared.device): the values stream did not end after lost at t=5s"], "\(violations)")
    }

    @Test func aSubscribeThatSucceededOwesTheValuesAndOneThatFailedDoesNot() {
        // Given values on air at 1, 2 and 3 s, none received, and a subscribe that ended at 0.5 s
        func judge(_ outcome: String) -> [String] {
            let subscribe = ScenarioOperationRecord(
                name: "subscribe F111", start: .zero, timeout: .seconds(30),
                completions: [(.milliseconds(500), outcome)])
            return NotificationOracle().violations(
                in: ExplorationObservation(
                    end: .seconds(10), operations: [subscribe], records: Shared.notifiedOnAir(at: [1, 2, 3]),
                    clients: [Shared.client(.none, subscribed: ["F111"])]))
        }

        // When it succeeded, or failed
        let succeeded = judge("ok")
        let failed = judge("failed: attribute")

        // Then the three values are lost after the success only
        #expect(succeeded.contains { $0.contains("3 value(s) on air never reached the app") }, "\(succeeded)")
        #expect(failed.isEmpty, "\(failed)")
    }
}

/// The reconnection model's attempt on air: the start of an app's own connect that completed before the attempt was
/// announced is never that attempt (a loss 45 ms after the app's connect succeeded, within the early tolerance).
@Suite struct ReconnectionStartBoundsTests {
    typealias Shared = ExplorerOracleTests

    /// The app's connect from 2.193 s to 2.194 s (on air at 2.1939 s when `appConnected`, else only on air), the
    /// link lost at 2.239 s, an attempt announced then after 0.148 s, and that attempt on air at 2.387 s; judged
    /// with the BlueZ explorer's tolerance (50 ms early, 100 ms late).
    static func judge(appConnected: Bool) -> [String] {
        let connecting = [2.1939, 2.387].map { seconds in
            TraceRecord(
                time: AirlinkInstant(offset: .microseconds(Int(seconds * 1_000_000))),
                event: .connecting(adapter: 0, device: Shared.device, timeout: .seconds(2)))
        }
        let trigger = ReconnectionTrigger.after(.milliseconds(148))
        let events = [
            Shared.event(2.194, .connected(Shared.link)), Shared.event(2.239, .lost(Shared.loss)),
            Shared.event(2.239, .willReconnect(attempt: 1, remainingAttempts: 3, trigger: trigger)),
            Shared.event(2.4, .reconnected(Shared.link)),
        ]
        let connect = Shared.operation("connect \(Shared.device)", start: 2.193, timeout: 2, ends: [2.194])
        let oracle = ReconnectionModelOracle(tolerance: .init(early: .milliseconds(50), late: .milliseconds(100)))
        return oracle.violations(
            in: ExplorationObservation(
                end: .seconds(5), events: events, operations: appConnected ? [connect] : [], records: connecting,
                clients: [Shared.client(.linear(wait: .milliseconds(148), attempts: 3, timeout: .seconds(2)))]))
    }

    @Test func theStartOfTheAppsEarlierConnectIsNotTheAttempt() {
        // Given the app's own connect on air 45 ms before the announcement, and the attempt on air when its wait ends
        // When the reconnection oracle judges the run
        let violations = Self.judge(appConnected: true)

        // Then the attempt is the one at 2.387 s, on time
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test func aStartWithinTheEarlyToleranceThatNoConnectExplainsIsStillTheAttempt() {
        // Given the same starts, but none of them the app's connect
        // When the reconnection oracle judges the run
        let violations = Self.judge(appConnected: false)

        // Then the start 45 ms before the announcement is taken for the attempt, and is early
        #expect(violations.contains { $0.contains("the attempt started on air at t=2.1939s") }, "\(violations)")
    }

    /// A subscription made at 0.6 s, lost at 2 s and reconnected at 3 s, with no restoration reported; `operations`
    /// and `records` besides the subscribe, the loss at `lostAgain` (if any) besides these.
    static func judgeRestoration(
        _ operations: [ScenarioOperationRecord] = [], records: [TraceRecord] = [], lostAgain: Double? = nil
    ) -> [String] {
        var client = Shared.client(
            .linear(wait: .milliseconds(500), attempts: 3, timeout: .seconds(2)), subscribed: ["F111"])
        client.entry = 0
        let events =
            [
                Shared.event(0.2, .connected(Shared.link)), Shared.event(2, .lost(Shared.loss)),
                Shared.event(3, .reconnected(Shared.link)),
            ]
            + (lostAgain.map { [Shared.event($0, .lost(Shared.loss))] } ?? [])
        return NotificationOracle().violations(
            in: ExplorationObservation(
                end: .seconds(60), events: events,
                operations: [Shared.operation("subscribe F111", start: 0.5, timeout: 30, ends: [0.6])] + operations,
                records: records, clients: [client]))
    }

    @Test func anAppsCallAnswersAReconnectionOnlyWithinTheRestorationsTimeout() {
        // Given no call of the app's, an unsubscribe answered at 3.2 s, one answered at 40 s (after the 30 s), and a
        // subscribe of another entry answered at 3.2 s
        let none = Self.judgeRestoration()
        var unsubscribe = Shared.operation("unsubscribe F111", start: 3.1, timeout: 30, ends: [3.2])
        let answered = Self.judgeRestoration([unsubscribe])
        unsubscribe.completions = [(.seconds(40), "ok")]
        let late = Self.judgeRestoration([unsubscribe])
        var other = Shared.operation("subscribe F111", start: 3.1, timeout: 30, ends: [3.2])
        other.client = 1

        // Then only the call answered in time answers the reconnection
        #expect(none.count == 1, "\(none)")
        #expect(answered.isEmpty, "\(answered)")
        #expect(late.count == 1, "\(late)")
        #expect(Self.judgeRestoration([other]).count == 1)
    }

    @Test func aLossAtTheTimeoutOfTheLastRequestEndsARestorationAndNoLaterOne() {
        // Given a request on air at 3.5 s and the link lost at 33.4 s (30.4 s after the reconnection), or lost then
        // with no request, or lost at 34 s after the request
        let request = TraceRecord(
            time: AirlinkInstant(offset: .milliseconds(3500)),
            event: .attPDU(
                adapter: 0, device: Shared.device, direction: .toPeripheral,
                pdu: .readRequest(handle: ATTHandle(rawValue: 3)), bytes: []))
        let cut = Self.judgeRestoration(records: [request], lostAgain: 33.4)
        let alone = Self.judgeRestoration(lostAgain: 33.4)
        let after = Self.judgeRestoration(records: [request], lostAgain: 34)

        // Then only the loss by the request's own timeout ends the restoration
        #expect(cut.isEmpty, "\(cut)")
        #expect(alone.count == 1, "\(alone)")
        #expect(after.count == 1, "\(after)")
    }
}
