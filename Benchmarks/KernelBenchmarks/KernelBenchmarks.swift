import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import Benchmark

/// The kernel's figures (issue: foundation): executor jobs per second, timer firings per second, and
/// one virtual hour of a back-off loop with two observers.
///
/// Throughput benchmarks do `scaledIterations.count` units of work per sample (a million), so the
/// throughput column reads directly as jobs or timer firings per second.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 20)

    // Executor throughput: one task yields a million times; each yield is one job through the executor.
    Benchmark("Executor jobs", configuration: .init(scalingFactor: .mega)) { benchmark in
        let sim = Simulation(seed: 1, tracing: false)
        let count = benchmark.scaledIterations.count
        benchmark.startMeasurement()
        try await sim.run {
            for _ in 0..<count { await Task.yield() }
        }
        benchmark.stopMeasurement()
        blackHole(sim.statistics.jobs)
    }

    // Timer throughput: one task sleeps a million times (arm a timer, advance time, fire, continue).
    Benchmark("Timer firings", configuration: .init(scalingFactor: .mega)) { benchmark in
        let sim = Simulation(seed: 1, tracing: false)
        let count = benchmark.scaledIterations.count
        benchmark.startMeasurement()
        try await sim.run {
            for _ in 0..<count { try await sim.clock.sleep(for: .milliseconds(1)) }
        }
        benchmark.stopMeasurement()
        blackHole(sim.statistics.timers)
    }

    // An empty `Simulation.run`, a thousand per measured iteration: what a short run pays to hand
    // its driver loop to a driver thread and back (goal under 5 µs per run: Docs/Performance.md, "Kernel").
    Benchmark(
        "Empty runs (1k)",
        configuration: .init(
            scalingFactor: .kilo, thresholds: [.mallocCountTotal: .init(relative: [.p50: 10])])
    ) { benchmark in
        let sim = Simulation(seed: 1, tracing: false)
        let count = benchmark.scaledIterations.count
        benchmark.startMeasurement()
        for _ in 0..<count { try await sim.run {} }
        benchmark.stopMeasurement()
        blackHole(sim.statistics.jobs)
    }

    // One simulated hour of the back-off loop (sleep 2 s, time out after 3 s) with two observers.
    Benchmark("Back-off loop, one virtual hour") { benchmark in
        for _ in benchmark.scaledIterations {
            let sim = Simulation(seed: 7)
            benchmark.startMeasurement()
            let outcome = try await BackOffWorkload.run(in: sim, for: .seconds(3600))
            benchmark.stopMeasurement()
            blackHole(outcome)
        }
    }
}
