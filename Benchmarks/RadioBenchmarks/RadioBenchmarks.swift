import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import Benchmark

/// The virtual radio's figures: a crowded air scanned for a second, ATT read round trips with the
/// trace on, notifications through a link.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal], warmupIterations: 1,
        maxDuration: .seconds(10), maxIterations: 20)

    // 10,000 peripherals advertising every 100 ms, one central scanning (with duplicates) for one
    // virtual second: about 100,000 advertisements through the path-loss model and the event stream.
    // Allocations do not depend on the machine's load: a threshold (a tolerance against a baseline
    // or stored thresholds) catches a table built per peripheral again, or an allocation per
    // advertisement (about 39 a peripheral and its 10 advertisements);
    // the wall clock may grow by 40 % at p90, the noise of the loaded 2-core VM.
    Benchmark(
        "Scan 10k peripherals for 1 virtual second",
        configuration: .init(
            maxIterations: 5,
            thresholds: [
                .mallocCountTotal: .init(relative: [.p50: 10]), .wallClock: .init(relative: [.p90: 40]),
            ])
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let sim = Simulation(seed: 1, strict: false, tracing: false)
            benchmark.startMeasurement()
            for index in 0..<10_000 { try sim.add(RadioBenchmarkFixtures.beacon(index)) }
            let heard = try await FleetWorkloads.scan(sim, for: .seconds(1))
            benchmark.stopMeasurement()
            precondition(heard > 90_000, "heard only \(heard) advertisements")
            blackHole(heard)
        }
    }

    // ATT Read Request / Read Response round trips of a 20-byte value, trace on: 10,000 per sample
    // (reads per second = 10,000 / wall clock).
    Benchmark("ATT reads of 20 bytes, trace on (10,000)") { benchmark in
        let sim = Simulation(seed: 1, strict: false, tracing: true)
        try sim.add(RadioBenchmarkFixtures.sensor())
        let radio = sim.radio
        let handle = try await RadioBenchmarkFixtures.connect(sim)
        let reads = 0..<10_000
        benchmark.startMeasurement()
        try await sim.run {
            for _ in reads { blackHole(try await radio.read(RadioBenchmarkFixtures.sensorID, handle: handle)) }
        }
        benchmark.stopMeasurement()
    }

    // Notifications of a 20-byte value from the peripheral to an event-stream consumer: 100,000 per
    // sample (notifications per second = 100,000 / wall clock).
    Benchmark("Notifications through the radio (100,000)") { benchmark in
        let sim = Simulation(seed: 1, strict: false, tracing: false)
        let peripheral = try sim.add(RadioBenchmarkFixtures.sensor())
        let radio = sim.radio
        _ = try await RadioBenchmarkFixtures.connect(sim, subscribe: true)
        let events = radio.events()
        let count = 100_000
        benchmark.startMeasurement()
        try await sim.run {
            try peripheral.burstNotifications(of: RadioBenchmarkFixtures.value, count: count)
            var received = 0
            for await event in events {
                if case .notification = event { received += 1 }
                if received == count { break }
            }
        }
        benchmark.stopMeasurement()
    }
}
