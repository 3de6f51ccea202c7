import AirlinkCore

/// Liveness, from the Transport contract: every operation ends within its timeout, exactly once.
///
/// An operation (connect, disconnect, read, write, subscribe) started with a timeout must complete
/// (succeed or fail) no later than its start plus the timeout, and complete once: a second completion is
/// a duplicate callback. One that started less than its timeout before the end of the run may still be
/// pending. A stalled run (an operation that never ends) shows as an operation past its timeout. Each app's
/// operations are judged on their own.
public struct LivenessOracle: ExplorationOracle {
    /// `liveness`.
    public var name: String { "liveness" }

    /// Creates the oracle.
    public init() {}

    /// Operations that ended late, never, or more than once.
    public func violations(in observation: ExplorationObservation) -> [String] {
        observation.eachApp(appViolations)
    }

    private func appViolations(in observation: ExplorationObservation) -> [String] {
        var violations: [String] = []
        for operation in observation.operations {
            let start = "\(operation.name) started at t=\(operation.start.scenarioText)"
            let deadline = operation.start + operation.timeout
            if operation.completions.count > 1 {
                violations.append("\(start) completed \(operation.completions.count) times")
            }
            if let first = operation.completions.first {
                if first.time > deadline {
                    violations.append(
                        "\(start) ended at t=\(first.time.scenarioText), after its timeout of "
                            + "\(operation.timeout.scenarioText)")
                }
            } else if observation.end > deadline {
                violations.append(
                    "\(start) never ended (timeout \(operation.timeout.scenarioText), run ended at "
                        + "t=\(observation.end.scenarioText))")
            }
        }
        return violations
    }
}
