import Airlink
import AirlinkCore
import AirlinkTestKit

/// The JSON Lines of `simulate --json`: each event as it happened, each expectation, then the result;
/// every line has a `type`.
enum SimulateOutput {
    /// `{"type": "event", "time", "event", "device"?, "app", "detail"}`.
    struct Event: Encodable {
        var type = "event"
        var time: Seconds
        var event: String
        var device: String?
        var app: Int
        /// The event as the text summary writes it.
        var detail: String
    }

    /// `{"type": "expectation", "description", "held", "reason"}`.
    struct Expectation: Encodable {
        var type = "expectation"
        var description: String
        var held: Bool
        var reason: String
    }

    /// The last line: whether the run passed, the invariants violated, the golden trace's verdict.
    struct Result: Encodable {
        struct Statistics: Encodable {
            var losses: Int
            var reconnectionAttempts: Int
            var reconnectTimes: [Seconds]
            var notificationsReceived: Int
            var attPDUs: Int
            var traceLines: Int
        }
        var type = "result"
        var scenario: String
        var seed: UInt64
        var duration: Seconds
        var passed: Bool
        var violations: [String]
        var statistics: Statistics
        /// `matches`, `recorded`, `differs: ...` or `not compared (...)`.
        var golden: String?
        var report: String?
        var capture: String?
    }

    /// A failing seed of a sweep: `{"type": "failure", "seed", "reasons", "reproduce"}`.
    struct Failure: Encodable {
        var type = "failure"
        var seed: UInt64
        var reasons: [String]
        var reproduce: String
    }

    /// The end of a sweep: `{"type": "sweep", "runs", "failed"}`.
    struct Sweep: Encodable {
        var type = "sweep"
        var runs: Int
        var failed: Int
    }

    /// The lines before the result: the events, then the expectations.
    static func lines(_ result: ScenarioResult) -> [String] {
        result.events.map { record in
            Output.jsonLine(
                Event(
                    time: jsonSeconds(record.time), event: record.name, device: record.event.device?.description,
                    app: record.app, detail: "\(record.event)"))
        }
            + result.expectations.map {
                Output.jsonLine(Expectation(description: $0.description, held: $0.held, reason: $0.reason))
            }
    }

    /// The result line, without the golden verdict and the files written (the command adds them).
    static func result(_ result: ScenarioResult) -> Result {
        let statistics = result.statistics
        return Result(
            scenario: result.name, seed: result.seed, duration: jsonSeconds(result.duration), passed: result.passed,
            violations: result.violations,
            statistics: Result.Statistics(
                losses: statistics.losses, reconnectionAttempts: statistics.reconnectionAttempts,
                reconnectTimes: statistics.reconnectTimes.map(jsonSeconds),
                notificationsReceived: statistics.notificationsReceived, attPDUs: statistics.attPDUs,
                traceLines: statistics.traceLines))
    }
}
