import AirlinkCore

/// Runs the explorer over a range of seeds, several at once, and sums up what it found.
///
/// A shard (`shard` of `shards`) runs one contiguous slice of the range, so that a CI matrix of N
/// machines covers a large sweep with no scheduler: machine K runs shard K of N.
public struct ExplorationSweep: Sendable {
    /// The explorer each seed runs with.
    public var explorer: Explorer
    /// The seeds this shard runs.
    public var seeds: ClosedRange<UInt64>
    /// How many runs at once.
    public var jobs: Int

    /// A sweep of shard `shard` (from 1) of `shards` of `range`, `jobs` runs at once (the machine's cores
    /// when `nil`); `nil` when the shard is empty.
    public init?(
        explorer: Explorer, range: ClosedRange<UInt64>, shard: Int = 1, of shards: Int = 1, jobs: Int? = nil
    ) {
        let count = UInt64(range.count)
        let (low, high) = (count * UInt64(shard - 1) / UInt64(shards), count * UInt64(shard) / UInt64(shards))
        guard high > low else { return nil }
        self.explorer = explorer
        seeds = (range.lowerBound + low)...(range.lowerBound + high - 1)
        self.jobs = max(1, jobs ?? SystemInfo.activeProcessorCount)
    }

    /// What a sweep found.
    public struct Summary: Sendable {
        /// Runs made.
        public var runs = 0
        /// Virtual time covered by all runs.
        public var virtualTime: Duration = .zero
        /// Faults drawn, by kind, sorted by kind.
        public var faults: [(kind: String, count: Int)] = []
        /// Oracle failures, by oracle, sorted by oracle.
        public var failuresByOracle: [(oracle: String, count: Int)] = []
        /// The runs that failed, in seed order.
        public var failures: [Explorer.Outcome] = []
        /// The seed that took the longest real time, and how long.
        public var slowest: (seed: UInt64, time: Duration)?
    }

    /// Runs every seed; `progress` is called with the runs done after each.
    public func run(progress: (@Sendable (Int) -> Void)? = nil) async -> Summary {
        var summary = Summary()
        var faults: [String: Int] = [:]
        var oracles: [String: Int] = [:]
        let explorer = self.explorer
        await withTaskGroup(of: (Explorer.Outcome, Duration).self) { group in
            var next = seeds.lowerBound
            var remaining = seeds.count
            func add() {
                let seed = next
                group.addTask {
                    // The real clock measures how long a seed took to run, for the summary's slowest
                    // seed only; the run itself is in virtual time and never reads it.
                    let clock = ContinuousClock()
                    let started = clock.now
                    let outcome = await explorer.run(seed: seed)
                    return (outcome, started.duration(to: clock.now))
                }
                remaining -= 1
                if remaining > 0 { next += 1 }
            }
            for _ in 0..<min(jobs, remaining) { add() }
            for await (outcome, time) in group {
                summary.runs += 1
                summary.virtualTime += outcome.plan.duration
                for fault in outcome.plan.faults { faults[fault.kind, default: 0] += 1 }
                for failure in outcome.failures { oracles[failure.oracle, default: 0] += 1 }
                if !outcome.passed { summary.failures.append(outcome) }
                if time > summary.slowest?.time ?? .zero { summary.slowest = (outcome.plan.seed, time) }
                progress?(summary.runs)
                if remaining > 0 { add() }
            }
        }
        summary.faults = faults.map { ($0.key, $0.value) }.sorted { $0.kind < $1.kind }
        summary.failuresByOracle = oracles.map { ($0.key, $0.value) }.sorted { $0.oracle < $1.oracle }
        summary.failures.sort { $0.plan.seed < $1.plan.seed }
        return summary
    }
}
