import AirlinkTestKit
import Benchmark

/// Sweeps of a shipped scenario, and of the explorer, over many seeds: time per seed, and peak
/// memory, which must stay flat as the seeds grow (each seed's simulation is released when its run is over).
///
/// Each measured iteration sweeps the seeds once; time per seed is the wall clock divided by the
/// seeds. Peak resident memory is the figure to compare between the two sizes: a run that outlived
/// its seed would show as tens of megabytes more at 10,000 seeds.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
        warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 3)

    for seeds in [1_000, 10_000] {
        // The inspector session: an app on its own adapter, a client following and writing its values.
        Benchmark(
            "Sweep: inspector-session, \(seeds) seeds",
            configuration: .init(thresholds: [.peakMemoryResident: .init(absolute: [.p100: 100_000_000])])
        ) { benchmark in
            let scenario = try Scenario.load(path: SweepScenarios.path("inspector-session.yaml"))
            benchmark.startMeasurement()
            let outcome = try await ScenarioSweep(scenario: scenario, seeds: 1...UInt64(seeds)).run()
            benchmark.stopMeasurement()
            precondition(outcome.failures.isEmpty, "seeds failed: \(outcome.failures.prefix(3))")
            blackHole(outcome.runs)
        }
    }

    // The explorer's path: drawn worlds and faults, the oracles judging each run, one run at a time (a
    // run that outlived its seed, holding its trace, grew a sweep by about 10 KB a seed).
    Benchmark(
        "Explore: 1,000 seeds",
        configuration: .init(thresholds: [.peakMemoryResident: .init(absolute: [.p100: 100_000_000])])
    ) { benchmark in
        guard let sweep = ExplorationSweep(explorer: Explorer(), range: 1...1_000, jobs: 1) else { return }
        benchmark.startMeasurement()
        let summary = await sweep.run()
        benchmark.stopMeasurement()
        blackHole(summary.runs)
    }
}

/// The shipped scenarios, next to the package.
enum SweepScenarios {
    static func path(_ name: String) -> String {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)  // Benchmarks/SweepBenchmarks/SweepBenchmarks.swift
        return (components + ["Simulations", Substring(name)]).joined(separator: "/")
    }
}
