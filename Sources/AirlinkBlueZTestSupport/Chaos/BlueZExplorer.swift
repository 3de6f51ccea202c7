import Airlink
import AirlinkBlueZ
import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Synchronization

/// The fault explorer on the BlueZ backend: per seed, the fake BlueZ's chaos mode draws the faults
/// (Tests/Fixtures/bluez/chaos.py), ``BlueZChaosWorkload`` the app's work through the layers, and the
/// radio explorer's oracles judge what the layers reported.
///
/// Time is real here: each run lasts a few seconds, and every wait in it has a deadline. The oracles read
/// an ``/AirlinkTestKit/ExplorationObservation`` built as the radio explorer's is: the layers' events and the
/// app's operations and values stamped with the run's clock, and, as the notifications on air, the counter
/// values the fake BlueZ accepted to send (`Notify` answered true). Each operation is recorded with the
/// bound it must end within (``bounds``), which includes ``Bounds/slack`` for real-time scheduling.
package struct BlueZExplorer: Sendable {
    /// The bounds of the app's operations on this transport configuration.
    package struct Bounds: Sendable {
        /// How late past its definition an operation may end on a busy machine (real time, two cores).
        package static let slack: Duration = .milliseconds(500)
        /// A GATT operation: its turn behind one other transport call, its own call, the objects' settling.
        package var gatt: Duration
        /// A disconnect: the transport's Disconnect call and the link's end.
        package var disconnect: Duration
        /// Opening the transport: org.bluez's owner, then its objects, one call timeout each.
        package var open: Duration
    }

    /// How long an event may take from the transport to the recorder, on a busy machine: the notification
    /// oracle's ``/AirlinkTestKit/NotificationOracle/latency``.
    package static let eventLatency: Duration = .milliseconds(50)

    /// The peripheral descriptions the fixture loads for the explorer.
    package static let descriptions = ["chaos-sensor.json"]
    /// How long the chaos mode's timeline lasts (its `durationMs`), and about how long the workload runs.
    package static let chaosDuration: Duration = .seconds(3)

    /// Overrides of the chaos profile (JSON, `""` for the defaults of chaos.py); by default the timeline
    /// lasts ``chaosDuration``.
    package var profile: String

    /// The default overrides: the timeline within ``chaosDuration``.
    package static let defaultProfile = #"{"durationMs": 3000}"#
    /// The oracles every run is judged with: liveness, terminal events and notifications.
    package var oracles: [any ExplorationOracle]

    /// An explorer with the default profile and the oracles that hold on any transport.
    package init(profile: String = defaultProfile, oracles: [any ExplorationOracle]? = nil) {
        self.profile = profile
        self.oracles =
            oracles ?? [LivenessOracle(), TerminalEventOracle(), NotificationOracle(latency: Self.eventLatency)]
    }

    /// The transport's configuration: short timeouts, so that a run stays within a few seconds.
    package static func configuration(_ fake: FakeBlueZ) -> BlueZTransport.Configuration {
        BlueZTransport.Configuration(
            busAddress: fake.address, operationTimeout: .seconds(1), servicesGrace: .milliseconds(300),
            servicesQuietPeriod: .milliseconds(50), servicesSettleLimit: .seconds(1), hci: UnavailableHCI())
    }

    /// The bounds for ``configuration(_:)``.
    package static var bounds: Bounds {
        let configuration = BlueZTransport.Configuration(
            operationTimeout: .seconds(1), servicesGrace: .milliseconds(300), servicesSettleLimit: .seconds(1))
        let call = configuration.operationTimeout
        return Bounds(
            gatt: call * 2 + configuration.servicesSettleLimit + configuration.servicesGrace + Bounds.slack,
            disconnect: call * 2 + Bounds.slack, open: call * 2 + Bounds.slack)
    }

    /// What one seed gave.
    package struct Outcome: Sendable {
        /// The seed.
        package var seed: UInt64
        /// The app's work it drew.
        package var workload: BlueZChaosWorkload
        /// What the oracles found (or why the run could not start, as oracle `run`).
        package var failures: [OracleFailure]
        /// What the chaos mode did, one JSON object a line.
        package var chaos: [String]
        /// The layers' events, `t=…ms name device`, for reading a failure.
        package var events: [String]
        /// How long the run took, real time.
        package var took: Duration

        /// Whether every oracle held.
        package var passed: Bool { failures.isEmpty }

        /// A report for people: the seed, how to reproduce it, the failures, the chaos and the events.
        package var report: String {
            var lines = [
                "seed \(seed) \(passed ? "passed" : "FAILED") in \(took): \(workload)",
                "  reproduce with: AIRLINK_CHAOS_SEEDS=\(seed)...\(seed) bash Scripts/explore-bluez",
            ]
            lines += failures.map { "  \($0)" }
            if !passed {
                lines += chaos.map { "  chaos \($0)" }
                lines += events.map { "  event \($0)" }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Runs `seed` on `fake` (reset first, reset after) and judges it.
    package func run(seed: UInt64, on fake: FakeBlueZ) async -> Outcome {
        let began = ContinuousClock.now
        let workload = BlueZChaosWorkload(seed: seed)
        var outcome = Outcome(seed: seed, workload: workload, failures: [], chaos: [], events: [], took: .zero)
        do {
            try await fake.reset()
            try await fake.setChaos(seed: seed, profile: profile)
            let observation = try await BlueZChaosRun(fake: fake, workload: workload, seed: seed).observe()
            outcome.failures = oracles.flatMap { $0.check(observation) }
            outcome.events = observation.events.map { "t=\($0.time) \($0.event)" }
        } catch {
            outcome.failures = [OracleFailure("run", "\(error)")]
        }
        outcome.chaos = (try? await fake.chaosLog()) ?? []
        try? await fake.reset()
        outcome.took = began.duration(to: .now)
        return outcome
    }

    /// Runs `seeds` on one fixture started for them, reporting each outcome as it comes.
    package func sweep(
        _ seeds: ClosedRange<UInt64>, report: (Outcome) -> Void = { _ in }
    ) async throws -> [Outcome] {
        let fake = try await FakeBlueZ.start(Self.descriptions)
        defer { fake.stop() }
        var outcomes: [Outcome] = []
        for seed in seeds {
            let outcome = await run(seed: seed, on: fake)
            report(outcome)
            outcomes.append(outcome)
        }
        return outcomes
    }
}
