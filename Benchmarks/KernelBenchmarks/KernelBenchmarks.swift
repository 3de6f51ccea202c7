import AirlinkCore
import AirlinkSimulation
import Benchmark

/// The kernel's figures (issue: foundation): executor jobs per second, timer firings per second, and
/// one virtual hour of a back-off loop with two observers.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 2, maxDuration: .seconds(5))

    // Executor throughput: one task yields 100,000 times; each yield is one job through the executor.
    Benchmark("Executor jobs (100k yields)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            let sim = Simulation(seed: 1, tracing: false)
            benchmark.startMeasurement()
            try await sim.run {
                for _ in 0..<100_000 { await Task.yield() }
            }
            benchmark.stopMeasurement()
            blackHole(sim.statistics.jobs)
        }
    }

    // Timer throughput: one task sleeps 100,000 times (arm a timer, advance time, fire, continue).
    Benchmark("Timer firings (100k sleeps)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            let sim = Simulation(seed: 1, tracing: false)
            benchmark.startMeasurement()
            try await sim.run {
                for _ in 0..<100_000 { try await sim.clock.sleep(for: .milliseconds(1)) }
            }
            benchmark.stopMeasurement()
            blackHole(sim.statistics.timers)
        }
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
