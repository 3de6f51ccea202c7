import AirlinkTestKit
import AirlinkTestSupport
import Benchmark
import Foundation

/// The replay's curve: connecting to a recording of n services and discovering it whole, with a registry caching
/// the database, at 250, 1,000 and 3,000 services (Docs/Performance.md, "Replaying a recording"). The time per
/// service stays flat when the cost is linear; it grew with n while every operation saved the whole database.
///
/// Each sample parses the recording, builds the replayed peripheral, connects, discovers every service,
/// characteristic and descriptor, and waits until the registry (a JSON file, new each sample) holds the database.
let benchmarks: @Sendable () -> Void = {
    let directory = NSTemporaryDirectory() + "/airlink-replay-benchmarks-\(getpid())"
    atexit {
        try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "/airlink-replay-benchmarks-\(getpid())")
    }
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .peakMemoryResident], warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 10)

    for services in [250, 1_000, 3_000] {
        let yaml = ReplayWorkloads.recording(services: services)
        Benchmark("Replay: connect and discover \(services) services") { benchmark in
            for _ in benchmark.scaledIterations {
                let path = directory + "/registry-\(UUID().uuidString).json"
                let spec = try DeviceRecording.parse(yaml, source: "big.yaml").peripheralSpec()
                let (discovered, cached) = try await ReplayWorkloads.connectAndDiscover(spec, registryPath: path)
                precondition(discovered == services + 2 && cached == discovered, "the replay was not served whole")
                try? FileManager.default.removeItem(atPath: path)  // try?: a scratch file; the directory goes at exit
            }
        }
    }
}
