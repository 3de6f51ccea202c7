import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import Benchmark

/// How the virtual radio scales (Docs/Performance.md, "Scanning", "Connected fleets"): each curve runs the same
/// workload at four sizes, so that wall clock and allocations per unit (per advertiser, per notification) can be
/// compared across sizes; a linear curve keeps them flat.
///
/// - Scan: `n` advertisers (every 100 ms) added, then one central scanning with duplicates for one
///   virtual second (about `10 × n` advertisements). Adding the peripherals is measured too.
/// - Fleet: `n` sensors connected through the layers, each notifying a counter at 10 Hz, observed
///   for one virtual second (about `10 × n` values). Connecting is not measured (it is done
///   concurrently, so it takes about the same virtual time at every size).
///
/// Thresholds (package-benchmark's tolerances), as LayersBenchmarks has them: against a baseline
/// (`benchmark baseline check`) or stored figures (`benchmark thresholds update` on a quiet machine,
/// then `benchmark thresholds check`), the allocations may not grow by more than 2 % at p90 (one
/// more allocation per advertisement or per notification is 30 % or more), the wall clock by no
/// more than 40 % (the noise of the loaded 2-core VM).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal], warmupIterations: 1,
        maxDuration: .seconds(10), maxIterations: 10)

    let thresholds: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(relative: [.p90: 2]),
        .wallClock: .init(relative: [.p90: 40]),
    ]

    for advertisers in [100, 1_000, 10_000, 100_000] {
        Benchmark(
            "Scan: \(advertisers) advertisers for 1 virtual second",
            configuration: .init(thresholds: thresholds)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                let sim = Simulation(seed: 1, strict: false, tracing: false)
                benchmark.startMeasurement()
                for index in 0..<advertisers { try sim.add(FleetWorkloads.sensor(index)) }
                let heard = try await FleetWorkloads.scan(sim, for: .seconds(1))
                benchmark.stopMeasurement()
                precondition(heard > 9 * advertisers, "heard only \(heard) advertisements")
                blackHole(heard)
            }
        }
    }

    for sensors in [1, 10, 100, 1_000] {
        Benchmark(
            "Fleet: \(sensors) sensors notifying at 10 Hz for 1 virtual second",
            configuration: .init(thresholds: thresholds)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                let fleet = try await FleetWorkloads.connectedFleet(sensors)
                benchmark.startMeasurement()
                let outcome = try await FleetWorkloads.notify(fleet, for: .seconds(1))
                benchmark.stopMeasurement()
                precondition(outcome.received >= 9 * sensors && outcome.missed == 0, "values lost: \(outcome)")
                blackHole(outcome)
            }
        }
    }
}
