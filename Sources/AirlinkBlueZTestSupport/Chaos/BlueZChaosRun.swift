import Airlink
import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit

/// One run of the BlueZ explorer: the app's sessions on the chaotic fixture, one after another (bluetoothd
/// restarting ends one, and the app opens a new transport and device manager with the same registry), the
/// driver notifying each subscribed counter throughout, everything recorded with the run's clock.
///
/// Real time, on purpose: the fixture is another process. Every wait has a deadline: each operation's own
/// (the layers' and the transport's), and each session's, which waits for the work no longer than its
/// last operation's bound.
struct BlueZChaosRun: Sendable {
    /// What a run gives the oracles.
    struct Observations: Sendable {
        /// Each session's, in order: the per-session oracles judge each.
        var sessions: [ExplorationObservation]
        /// The whole run's connection events and forgets, with the registry at the end: the registry
        /// outlives the sessions, and so does its oracle's view.
        var registry: ExplorationObservation
    }

    /// The most sessions a run opens (the chaos profile restarts bluetoothd `events` times at most).
    static let maximumSessions = 8

    let fake: FakeBlueZ
    let workload: BlueZChaosWorkload
    let seed: UInt64

    /// Runs the workload and returns what the oracles read.
    func observe() async -> Observations {
        // The layers' jitter comes from the seed; the clock is the real one, from the start of the run.
        let environment = AirlinkEnvironment(
            clock: AirlinkClock(backend: SystemClockBackend()), executor: nil,
            random: SeededRandomSource(seed: seed), logger: .init(label: "airlink.explore.bluez"))
        let context = BlueZChaosContext(fake: fake, workload: workload, environment: environment)
        let notifiers = workload.clients.filter(\.subscribe).map { notifier(context, $0) }
        let stop: @Sendable () async -> Void = {
            // Not by cancellation: a notification cancelled in flight may have been sent but not recorded.
            context.notifiersStopped.withLock { $0 = true }
            for notifier in notifiers { _ = await notifier.value }
        }
        var sessions: [ExplorationObservation] = []
        for number in 1...Self.maximumSessions {
            let outcome = await BlueZChaosSession(context: context, number: number, stopNotifying: stop).run()
            sessions.append(outcome.observation)
            guard outcome.lost, context.progress.withLock({ !$0.allSatisfy(\.finished) }) else { break }
        }
        await stop()
        // try?: an unreadable registry shows as no records, which the registry oracle flags (every connected
        // device must have one).
        let records = (try? await context.registry.knownDevices()) ?? []
        let registry = ExplorationObservation(
            end: sessions.last?.end ?? .zero, events: sessions.flatMap(\.events),
            operations: sessions.flatMap(\.operations), registry: records)
        return Observations(sessions: sessions, registry: registry)
    }

    /// Notifies `client`'s counter every `notifyEvery` until the notifiers stop, keeping the values the
    /// fixture sent.
    private func notifier(_ context: BlueZChaosContext, _ client: BlueZChaosWorkload.Client) -> Task<Void, Never> {
        let (fake, peripheral, every) = (self.fake, client.peripheral, client.notifyEvery)
        let clock = context.environment.clock
        // A real task sleeping in real time on purpose: it plays the peripheral notifying, against the real fixture.
        return Task {
            var counter: UInt16 = 0
            while !context.notifiersStopped.withLock({ $0 }) {
                counter &+= 1
                let bytes = [UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8)]
                let at = clock.now.offset
                // try?: a value the fixture could not send (bluetoothd restarting) was not on air: not recorded.
                if (try? await fake.notify(peripheral.counterPath, bytes)) == true {
                    context.onAir.withLock { $0.append(.init(device: peripheral.device, time: at, bytes: bytes)) }
                }
                do { try await Task.sleep(for: every) } catch { return }
            }
        }
    }
}
