import AirlinkCore
import AirlinkTestKit

/// The JSON Lines of `explore --json`: each failing seed as it is reported, then a summary (a replay:
/// one line); every line has a `type`.
enum ExploreOutput {
    /// A failing seed: `{"type": "failure", "seed", "generator", "failures": [{"oracle", "message"}],
    /// "reproduce", "shrunk"?}`.
    struct Failure: Encodable {
        var type = "failure"
        var seed: UInt64
        var generator: String
        var failures: [Oracle]
        var reproduce: String
        /// The shrunk scenario written, replayed with `airlink explore --replay PATH`.
        var shrunk: String?
    }

    /// One oracle's finding.
    struct Oracle: Encodable {
        var oracle: String
        var message: String

        init(_ failure: OracleFailure) {
            oracle = failure.oracle
            message = failure.message
        }
    }

    /// A kind and how often: a fault drawn, an oracle that failed.
    struct Count: Encodable {
        var kind: String
        var count: Int
    }

    /// The last line of a sweep.
    struct Summary: Encodable {
        var type = "summary"
        var runs: Int
        var first: UInt64
        var last: UInt64
        var generator: String
        var virtualSeconds: Int64
        var faults: [Count]
        var oracleFailures: [Count]
        var slowestSeed: UInt64?
        var slowestRealSeconds: Seconds?
        var passed: Bool
    }

    /// The line of a replay: `{"type": "replay", "file", "failures", "passed"}`.
    struct Replay: Encodable {
        var type = "replay"
        var file: String
        var failures: [Oracle]
        var passed: Bool
    }

    /// The summary line of a sweep.
    static func summary(_ summary: ExplorationSweep.Summary, _ sweep: ExplorationSweep, generator: String) -> String {
        Output.jsonLine(
            Summary(
                runs: summary.runs, first: sweep.seeds.lowerBound, last: sweep.seeds.upperBound, generator: generator,
                virtualSeconds: summary.virtualTime.components.seconds,
                faults: summary.faults.map { Count(kind: $0.kind, count: $0.count) },
                oracleFailures: summary.failuresByOracle.map { Count(kind: $0.oracle, count: $0.count) },
                slowestSeed: summary.slowest?.seed, slowestRealSeconds: summary.slowest.map { jsonSeconds($0.time) },
                passed: summary.failures.isEmpty))
    }
}
