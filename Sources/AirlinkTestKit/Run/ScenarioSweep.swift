import AirlinkCore

/// Runs one scenario over many seeds, in parallel: each seed its own `Simulation`, seeds independent.
///
/// ```swift
/// let sweep = try await ScenarioSweep(scenario: scenario, seeds: 1...1000).run()
/// for failure in sweep.failures { print(failure.seed, failure.reasons) }
/// ```
public struct ScenarioSweep: Sendable {
    /// A seed whose run failed, and why.
    public struct Failure: Sendable, Hashable {
        /// The seed the run used: `airlink simulate --seed` with it replays the failing run.
        public var seed: UInt64
        /// The expectations and invariants that did not hold (or the error that stopped the run).
        public var reasons: [String]
    }

    /// What a sweep found.
    public struct Outcome: Sendable {
        /// How many seeds ran.
        public var runs: Int
        /// The failing seeds, in seed order.
        public var failures: [Failure]
        /// Every time to reconnect, over all seeds, sorted.
        public var reconnectTimes: [Duration]

        /// A percentile (0–100) of the times to reconnect, or `nil` when none reconnected.
        public func reconnectTime(percentile: Double) -> Duration? {
            guard !reconnectTimes.isEmpty else { return nil }
            let rank = Int((percentile / 100 * Double(reconnectTimes.count - 1)).rounded(.up))
            return reconnectTimes[min(max(rank, 0), reconnectTimes.count - 1)]
        }
    }

    /// The scenario every seed runs.
    public var scenario: Scenario
    /// The seeds to run, one run each.
    public var seeds: ClosedRange<UInt64>
    /// How many runs at once (the machine's cores by default).
    public var parallelism: Int

    /// The most seeds one sweep runs: as many as ``Outcome/runs`` counts (`Int.max`; `0...UInt64.max` holds
    /// one more than twice that).
    public static let maximumSeeds = UInt64(Int.max)

    /// A sweep of `scenario` over `seeds`, `parallelism` runs at once (the machine's cores when `nil`).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` when `seeds` holds more than
    ///   ``maximumSeeds`` seeds.
    public init(scenario: Scenario, seeds: ClosedRange<UInt64>, parallelism: Int? = nil) throws(AirlinkError) {
        guard seeds.upperBound - seeds.lowerBound < Self.maximumSeeds else {
            throw AirlinkError(
                .invalidArgument,
                "seeds \(seeds.lowerBound)...\(seeds.upperBound) hold more than \(Self.maximumSeeds) seeds, more than "
                    + "one sweep counts; sweep a part of the range at a time")
        }
        self.scenario = scenario
        self.seeds = seeds
        self.parallelism = max(1, parallelism ?? SystemInfo.activeProcessorCount)
    }

    /// Runs every seed; the scenario's golden trace is not compared (it belongs to one seed).
    public func run() async -> Outcome {
        let scenario = self.scenario
        var failures: [Failure] = []
        var times: [Duration] = []
        await withTaskGroup(of: (UInt64, Failure?, [Duration]).self) { group in
            var next = seeds.lowerBound
            var started = 0
            func add() {
                let seed = next
                group.addTask {
                    do throws(AirlinkError) {
                        let result = try await ScenarioRunner().run(scenario, seed: seed)
                        let reasons =
                            result.expectations.filter { !$0.held }.map { "\($0.description): \($0.reason)" }
                            + result.violations
                        return (
                            seed, reasons.isEmpty ? nil : Failure(seed: seed, reasons: reasons),
                            result.statistics.reconnectTimes
                        )
                    } catch {
                        return (seed, Failure(seed: seed, reasons: ["the run failed: \(error.message)"]), [])
                    }
                }
                started += 1
                if next < seeds.upperBound { next += 1 }
            }
            let total = seeds.count  // at most Int.max: the initializer refuses more
            while started < min(parallelism, total) { add() }
            for await (_, failure, reconnects) in group {
                if let failure { failures.append(failure) }
                times += reconnects
                if started < total { add() }
            }
        }
        return Outcome(
            runs: seeds.count, failures: failures.sorted { $0.seed < $1.seed }, reconnectTimes: times.sorted())
    }
}

/// The machine's processors.
enum SystemInfo {
    static var activeProcessorCount: Int {
        #if canImport(Glibc)
            return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #else
            return 2
        #endif
    }
}

#if canImport(Glibc)
    import Glibc
#endif
