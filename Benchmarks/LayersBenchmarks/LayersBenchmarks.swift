import Airlink
import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import Benchmark

/// The layers' figures (issue: layers), on the scripted transport of the layers' tests:
/// - a full cycle (discover, connect, discover services, read, write, disconnect): target < 100 µs;
/// - notifications through the whole stack: target ≥ 500,000/s, and a deliberately slow observer of
///   another service lowering the rate by < 10 %;
/// - 24 virtual hours of a link lost every 5 minutes with linear back-off: target < 200 ms.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 2, maxDuration: .seconds(5))

    // 1000 full cycles per measured iteration, in one run of one simulation: wall clock ÷ 1000.
    Benchmark("Full cycle (1k cycles)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let (sim, transport) = try LayersWorkloads.world()
        let manager = DeviceManager(transport: transport, environment: sim.environment)
        let cycles = benchmark.scaledIterations.count
        benchmark.startMeasurement()
        try await sim.run {
            for _ in 0..<cycles {
                try await LayersWorkloads.fullCycle(manager: manager, transport: transport)
            }
        }
        benchmark.stopMeasurement()
    }

    // 100,000 notifications from the transport's event stream to an AsyncSequence observer.
    for slow in [false, true] {
        let name = slow ? "Notifications (100k), slow observer on another service" : "Notifications (100k)"
        Benchmark(name, configuration: .init(scalingFactor: .kilo)) { benchmark in
            let setup = try await LayersWorkloads.notificationSetup(slowObserver: slow)
            benchmark.startMeasurement()
            let outcome = try await LayersWorkloads.notifications(100 * benchmark.scaledIterations.count, setup: setup)
            benchmark.stopMeasurement()
            precondition(outcome.missed == 0, "values were missed")
            blackHole(outcome)
        }
    }

    // 24 virtual hours, a loss every 5 minutes, linear back-off 2 s × 3 attempts × 3 s.
    Benchmark("Day of losses every 5 min, linear back-off") { benchmark in
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            let reconnections = try await LayersWorkloads.dayOfLosses(hours: 24)
            benchmark.stopMeasurement()
            precondition(reconnections == 288, "expected 288 reconnections, got \(reconnections)")
        }
    }

    layersOverRadioBenchmarks()
}
