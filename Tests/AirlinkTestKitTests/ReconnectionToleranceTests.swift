import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkTestKit

/// The reconnection reference model on real time (the BlueZ explorer): an attempt may be recorded up to
/// `tolerance.early` before and `tolerance.late` after the definition's instant, and never stands for the
/// attempt after it; with no tolerance (the radio) the instant is exact.
@Suite struct ReconnectionToleranceTests {
    typealias Shared = ExplorerOracleTests

    static let tolerance = ReconnectionModelOracle.Tolerance(early: .milliseconds(50), late: .milliseconds(100))
    static let linear = ExplorationObservation.Client(
        device: Shared.device, reconnection: .linear(wait: .seconds(1), attempts: 3, timeout: .seconds(3)),
        subscribed: [])

    static func connecting(_ seconds: Double) -> TraceRecord {
        ExplorerOracleDetectionTests.record(
            seconds, .connecting(adapter: 0, device: Shared.device, timeout: .seconds(3)))
    }

    /// Lost at 5 s, attempt 1 (wait 1 s) announced at 5 s, reconnected at 6.5 s; the attempt started at `second`.
    static func judge(connectingAt second: Double, _ tolerance: ReconnectionModelOracle.Tolerance) -> [String] {
        let events = [
            Shared.event(1, .connected(Shared.link)), Shared.event(5, .lost(Shared.loss)),
            Shared.event(5, .willReconnect(attempt: 1, remainingAttempts: 3, trigger: .after(.seconds(1)))),
            Shared.event(6.5, .reconnected(Shared.link)),
        ]
        return ReconnectionModelOracle(tolerance: tolerance).violations(
            in: ExplorationObservation(
                end: .seconds(10), events: events, records: [connecting(second)], clients: [linear]))
    }

    @Test func anAttemptWithinTheToleranceOfItsInstantPassesAndOneBeyondFails() {
        // Given the BlueZ explorer's tolerance: 50 ms early, 100 ms late
        // When the attempt due at 6 s starts 40 ms early, 90 ms late, 60 ms early or 110 ms late
        let early = Self.judge(connectingAt: 5.96, Self.tolerance)
        let late = Self.judge(connectingAt: 6.09, Self.tolerance)
        let tooEarly = Self.judge(connectingAt: 5.94, Self.tolerance)
        let tooLate = Self.judge(connectingAt: 6.11, Self.tolerance)

        // Then the first two pass and the others are named with the tolerance
        #expect(early.isEmpty, "\(early)")
        #expect(late.isEmpty, "\(late)")
        #expect(tooEarly.contains { $0.contains("t=5940ms") && $0.contains("within 50ms before, 100ms after") })
        #expect(tooLate.contains { $0.contains("t=6110ms") }, "\(tooLate)")
    }

    @Test func withoutToleranceTheInstantIsExact() {
        // Given no tolerance (the virtual radio)
        // When the attempt due at 6 s starts at 6 s, or 1 ms late
        // Then only the first passes
        #expect(Self.judge(connectingAt: 6, .exact).isEmpty)
        #expect(!Self.judge(connectingAt: 6.001, .exact).isEmpty)
    }

    @Test func theAttemptThatFailedAtOnceDoesNotStandForTheNextOne() {
        // Given attempt 1 started at 6 s and failed at once; attempt 2 announced, recorded 30 ms late at 6.03 s
        let events = [
            Shared.event(1, .connected(Shared.link)), Shared.event(5, .lost(Shared.loss)),
            Shared.event(5, .willReconnect(attempt: 1, remainingAttempts: 3, trigger: .after(.seconds(1)))),
            Shared.event(6.03, .willReconnect(attempt: 2, remainingAttempts: 2, trigger: .after(.seconds(1)))),
            Shared.event(7.5, .reconnected(Shared.link)),
        ]
        let observation = ExplorationObservation(
            end: .seconds(10), events: events, records: [Self.connecting(6), Self.connecting(7)],
            clients: [Self.linear])

        // When the model judges it with the BlueZ tolerance
        let violations = ReconnectionModelOracle(tolerance: Self.tolerance).violations(in: observation)

        // Then attempt 2 is the one at 7 s (30 ms before its recorded instant), not attempt 1's at 6 s
        #expect(violations.isEmpty, "\(violations)")
    }
}
