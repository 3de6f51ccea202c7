import AirlinkCore

/// Runs plans on the virtual radio and judges them with the oracles.
///
/// ```swift
/// let explorer = Explorer()
/// let outcome = await explorer.run(seed: 42)
/// for failure in outcome.failures { print(failure) }
/// ```
public struct Explorer: Sendable {
    /// What a seed draws.
    public var generator: ExplorationGenerator
    /// What every run must satisfy.
    public var oracles: [any ExplorationOracle]

    /// An explorer with a generator (default limits) and every oracle.
    public init(generator: ExplorationGenerator = ExplorationGenerator(), oracles: [any ExplorationOracle]? = nil) {
        self.generator = generator
        self.oracles = oracles ?? ExplorationOracles.all
    }

    /// What one run gave.
    public struct Outcome: Sendable {
        /// The plan that ran.
        public var plan: ExplorationPlan
        /// The oracles' failures (or the error that stopped the run, as oracle `run`), in oracle order.
        public var failures: [OracleFailure]

        /// Whether every oracle held.
        public var passed: Bool { failures.isEmpty }
    }

    /// Draws the plan `seed` names and runs it.
    public func run(seed: UInt64) async -> Outcome {
        await run(generator.plan(seed: seed))
    }

    /// Runs a plan through its scenario text and judges it.
    public func run(_ plan: ExplorationPlan) async -> Outcome {
        do throws(AirlinkError) {
            return Outcome(plan: plan, failures: try await judge(plan.scenario()))
        } catch {
            return Outcome(plan: plan, failures: [OracleFailure(oracle: "run", message: error.message)])
        }
    }

    /// Runs any scenario (a shrunk one from a file, say) and judges it with the oracles.
    ///
    /// - Throws: what ``ScenarioRunner/run(_:seed:)`` throws.
    public func judge(_ scenario: Scenario) async throws(AirlinkError) -> [OracleFailure] {
        try await judge(scenario, with: ScenarioRunner())
    }

    /// Runs a scenario with `runner` (one a test watches) and judges it with the oracles.
    package func judge(_ scenario: Scenario, with runner: ScenarioRunner) async throws(AirlinkError)
        -> [OracleFailure]
    {
        let result = try await runner.run(scenario)
        let observation = ExplorationObservation(scenario: scenario, result: result)
        return oracles.flatMap { $0.check(observation) }
    }
}
