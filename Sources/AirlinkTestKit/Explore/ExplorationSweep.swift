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
        guard shards >= 1, (1...shards).contains(shard) else { return nil }
        // The shard is the seeds from offset ⌊count·(K−1)/N⌋ to ⌊count·K/N⌋ − 1 of the range. The count
        // reaches 2^64 for the whole range, so the products are taken full width and every bound stays an
        // offset from the range's start: nothing overflows at UInt64.max.
        let low = Self.offset(range, shard - 1, shards)
        let high = Self.offset(range, shard, shards)  // one past the shard's last seed, as an offset; may be 2^64
        guard high.overflow || high.offset > low.offset else { return nil }
        self.explorer = explorer
        let last = high.overflow ? UInt64.max : high.offset - 1
        seeds = (range.lowerBound + low.offset)...(range.lowerBound + last)
        self.jobs = max(1, jobs ?? SystemInfo.activeProcessorCount)
    }

    /// ⌊count·k/n⌋ for the range's count of seeds (up to 2^64), with `overflow` set when it is exactly 2^64
    /// (`k == n` over the whole range of UInt64).
    private static func offset(_ range: ClosedRange<UInt64>, _ k: Int, _ n: Int) -> (offset: UInt64, overflow: Bool) {
        // count·k = (width + 1)·k = width·k + k, with width = upper − lower (never overflows).
        let width = range.upperBound - range.lowerBound
        let product = width.multipliedFullWidth(by: UInt64(k))
        let (low, carry) = product.low.addingReportingOverflow(UInt64(k))
        let high = product.high + (carry ? 1 : 0)
        // The quotient is at most count ≤ 2^64; it overflows UInt64 only when it is 2^64 exactly.
        if high >= UInt64(n) { return (0, true) }
        return (UInt64(n).dividingFullWidth((high, low)).quotient, false)
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
            // The next seed to start, `nil` once the last has started (the range may end at UInt64.max).
            var next: UInt64? = seeds.lowerBound
            func add() {
                guard let seed = next else { return }
                group.addTask {
                    // The real clock measures how long a seed took to run, for the summary's slowest
                    // seed only; the run itself is in virtual time and never reads it.
                    let clock = ContinuousClock()
                    let started = clock.now
                    let outcome = await explorer.run(seed: seed)
                    return (outcome, started.duration(to: clock.now))
                }
                next = seed < seeds.upperBound ? seed + 1 : nil
            }
            for _ in 0..<jobs where next != nil { add() }
            for await (outcome, time) in group {
                summary.runs += 1
                summary.virtualTime += outcome.plan.duration
                for fault in outcome.plan.faults { faults[fault.kind, default: 0] += 1 }
                for failure in outcome.failures { oracles[failure.oracle, default: 0] += 1 }
                if !outcome.passed { summary.failures.append(outcome) }
                if time > summary.slowest?.time ?? .zero { summary.slowest = (outcome.plan.seed, time) }
                progress?(summary.runs)
                if next != nil { add() }
            }
        }
        summary.faults = faults.map { ($0.key, $0.value) }.sorted { $0.kind < $1.kind }
        summary.failuresByOracle = oracles.map { ($0.key, $0.value) }.sorted { $0.oracle < $1.oracle }
        summary.failures.sort { $0.plan.seed < $1.plan.seed }
        return summary
    }
}
