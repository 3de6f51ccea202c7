import Airlink
import AirlinkTestSupport
import Benchmark

/// The layers over the virtual radio and the built-in thermostat: the figures a user sees (Docs/Performance.md, "Layers
/// over the radio"). Allocations are counted per measured iteration, so a regression that builds a string or a box per
/// request shows as more mallocs per read even on a loaded machine.
///
/// Each has thresholds, checked against a baseline (`benchmark baseline check`) or stored figures
/// (`benchmark thresholds update` on a quiet machine, then `benchmark thresholds check`): the
/// allocation count may not grow by more than 2 % at p90, which no noise explains; the wall clock by
/// no more than 40 %, which the noise of a loaded 2-core VM stays under (Docs/Performance.md).
func layersOverRadioBenchmarks() {
    let thresholds: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(relative: [.p90: 2]),
        .wallClock: .init(relative: [.p90: 40]),
    ]

    // 1000 cycles (connect, discover all, read, disconnect) per measured iteration.
    Benchmark(
        "Radio: full cycle (1k cycles)", configuration: .init(scalingFactor: .kilo, thresholds: thresholds)
    ) { benchmark in
        let world = try await RadioLayersWorkloads.world(connected: false)
        let cycles = benchmark.scaledIterations.count
        benchmark.startMeasurement()
        try await world.sim.run { for _ in 0..<cycles { try await RadioLayersWorkloads.fullCycle(world) } }
        benchmark.stopMeasurement()
    }

    // 10,000 sequential reads per measured iteration, trace off.
    Benchmark(
        "Radio: reads through the layers (10k)",
        configuration: .init(
            scalingFactor: .kilo, thresholds: thresholds)
    ) { benchmark in
        let world = try await RadioLayersWorkloads.world()
        let reads = 10 * benchmark.scaledIterations.count
        benchmark.startMeasurement()
        blackHole(try await RadioLayersWorkloads.reads(reads, in: world))
        benchmark.stopMeasurement()
    }

    // 100,000 notifications per measured iteration, trace off.
    Benchmark(
        "Radio: notifications through the layers (100k)",
        configuration: .init(scalingFactor: .kilo, thresholds: thresholds)
    ) { benchmark in
        let world = try await RadioLayersWorkloads.world(capacity: 1 << 20)
        try await RadioLayersWorkloads.subscribe(world)
        benchmark.startMeasurement()
        let outcome = try await RadioLayersWorkloads.notifications(100 * benchmark.scaledIterations.count, in: world)
        benchmark.stopMeasurement()
        precondition(outcome.missed == 0, "values were missed")
        blackHole(outcome)
    }
}
