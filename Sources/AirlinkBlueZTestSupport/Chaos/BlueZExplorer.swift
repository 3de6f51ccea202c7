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
/// an ``/AirlinkTestKit/ExplorationObservation`` per session of the app (one transport and device manager;
/// bluetoothd restarting ends one) built as the radio explorer's is: the layers' events and the app's
/// operations and values stamped with the run's clock, as the notifications on air the counter values the
/// fake BlueZ accepted to send (`Notify` answered true), and as the attempts on air the layers' calls to the
/// transport's `connect`. Each operation is recorded with the bound it must end within (``bounds``), which
/// includes ``Bounds/slack`` for real-time scheduling. The registry oracle judges the whole run at once.
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
        /// How long org.bluez may stay without an owner while bluetoothd restarts (the chaos mode's gap is
        /// 50–500 ms), with the slack: a reopening session retries within it, then opens within ``open``.
        package static let restartGap: Duration = .seconds(1)
    }

    /// How long an event may take from the transport to the recorder, on a busy machine: the notification
    /// oracle's ``/AirlinkTestKit/NotificationOracle/latency``.
    package static let eventLatency: Duration = .milliseconds(50)

    /// How far from the reconnection strategy's instants a recorded attempt may fall on real time: earlier
    /// by ``eventLatency`` (the announcement and power-on are recorded that much late), later by 100 ms (a
    /// real timer firing late and the layers' hop to the transport with two cores shared by several
    /// processes; measured 0–3 ms late in a sweep at load average 10, Docs/DeterministicCI.md).
    package static let attemptTolerance = ReconnectionModelOracle.Tolerance(
        early: eventLatency, late: .milliseconds(100))

    /// The peripheral descriptions the fixture loads for the explorer: two sensors.
    package static let descriptions = ["chaos-sensor.json"]
    /// How long the chaos mode's timeline lasts (its `durationMs`), and about how long the workload runs.
    package static let chaosDuration: Duration = .seconds(3)

    /// Overrides of the chaos profile (JSON, `""` for the defaults of chaos.py); by default the timeline
    /// lasts ``chaosDuration``.
    package var profile: String

    /// The default overrides: the timeline within ``chaosDuration``.
    package static let defaultProfile = #"{"durationMs": 3000}"#
    /// The oracles each session is judged with: liveness, terminal events, the reconnection strategies'
    /// reference model and notifications.
    package var oracles: [any ExplorationOracle]
    /// The oracles the whole run is judged with: the registry.
    package var runOracles: [any ExplorationOracle]

    /// An explorer with the default profile and the oracles that hold on any transport.
    package init(
        profile: String = defaultProfile, oracles: [any ExplorationOracle]? = nil,
        runOracles: [any ExplorationOracle]? = nil
    ) {
        self.profile = profile
        self.oracles =
            oracles ?? [
                LivenessOracle(), TerminalEventOracle(), ReconnectionModelOracle(tolerance: Self.attemptTolerance),
                NotificationOracle(latency: Self.eventLatency),
            ]
        self.runOracles = runOracles ?? [RegistryOracle(window: Self.eventLatency)]
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
        /// The app's operations, `t=…ms name (bound): outcome at t=…ms`, for reading a failure.
        package var operations: [String] = []
        /// How many sessions the app had (bluetoothd restarted between them).
        package var sessions = 0
        /// The devices each session used: all the workload's in the first, those the registry knew later.
        package var devices: [[DeviceID]] = []
        /// The chaos profile's overrides the run used, when not the default ones (the reproduction needs them).
        package var profile = ""

        /// Whether every oracle held.
        package var passed: Bool { failures.isEmpty }

        /// The outcome of `seed` before anything is known of its run (the explorer fills it in as it goes).
        package init(seed: UInt64, workload: BlueZChaosWorkload) {
            self.seed = seed
            self.workload = workload
            failures = []
            chaos = []
            events = []
            took = .zero
        }

        /// A report for people: the seed, how to reproduce it, the failures, and when it failed (or
        /// `verbose`), the chaos and the events.
        package func report(verbose: Bool = false) -> String {
            var lines = [
                "seed \(seed) \(passed ? "passed" : "FAILED") in \(took), \(sessions) session(s): \(workload)",
                "  reproduce with: " + (profile.isEmpty ? "" : "AIRLINK_CHAOS_PROFILE='\(profile)' ")
                    + "AIRLINK_CHAOS_SEEDS=\(seed)...\(seed) bash Scripts/explore-bluez",
            ]
            lines += failures.map { "  \($0)" }
            if !passed || verbose {
                lines += chaos.map { "  chaos \($0)" }
                lines += events.map { "  event \($0)" }
                lines += operations.map { "  operation \($0)" }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Runs `seed` on `fake` (reset first, reset after) and judges it.
    package func run(seed: UInt64, on fake: FakeBlueZ) async -> Outcome {
        // Real time on purpose: BlueZ runs are real-time runs; the figure is the report's.
        let began = ContinuousClock.now
        let workload = BlueZChaosWorkload(seed: seed)
        var outcome = Outcome(seed: seed, workload: workload)
        if profile != Self.defaultProfile { outcome.profile = profile }
        do {
            try await fake.reset()
            try await fake.setChaos(seed: seed, profile: profile)
            let observations = await BlueZChaosRun(fake: fake, workload: workload, seed: seed).observe()
            for (index, session) in observations.sessions.enumerated() {
                let named = observations.sessions.count > 1 ? "session \(index + 1): " : ""
                outcome.failures += oracles.flatMap { $0.check(session) }.map { failure in
                    OracleFailure(failure.oracle, named + failure.message)
                }
                if index > 0 { outcome.events.append("session \(index + 1)") }
                // The layers' events, and their calls to the transport's connect (the attempts on air).
                let attempts = session.records.compactMap { record -> (Duration, String)? in
                    guard case .connecting(_, let device, _) = record.event else { return nil }
                    return (record.time.offset, "\(device) transport.connect")
                }
                outcome.events += (session.events.map { ($0.time, "\($0.event)") } + attempts)
                    .sorted { $0.0 < $1.0 }.map { "t=\($0.0.milliseconds) \($0.1)" }
                outcome.operations += session.operations.map { operation in
                    "t=\(operation.start.milliseconds) \(operation.name) (\(operation.timeout.milliseconds)): "
                        + operation.completions.map { "\($0.outcome) at t=\($0.time.milliseconds)" }
                        .joined(separator: ", ")
                }
                outcome.sessions += 1
                outcome.devices.append(session.clients.map(\.device))
            }
            outcome.failures += runOracles.flatMap { $0.check(observations.registry) }
        } catch {
            outcome.failures = [OracleFailure("run", "\(error)")]
        }
        // try?: the chaos log only explains a verdict already reached; a fixture that cannot reset fails the
        // next seed's run, which says so.
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

extension Duration {
    /// `1234ms`, whole milliseconds: the BlueZ explorer's reports.
    fileprivate var milliseconds: String {
        "\(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)ms"
    }
}
