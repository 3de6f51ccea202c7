import AirlinkCore
import AirlinkSimulation

/// A reference workload of the kernel: a connect loop with time-outs, back-off and two observers.
///
/// Each attempt "connects" after a delay drawn from the seeded source (0.5 s to 4 s); past 3 s the
/// attempt times out. Every outcome is sent to two observers (actors) that record it in the trace,
/// and the loop backs off 2 s (plus up to 250 ms of jitter) before the next attempt. It exercises
/// what the real layers do (timers racing time-outs, cancellation, actors, seeded random draws) with
/// nothing else in the way, so benchmarks measure the kernel and tests check its determinism.
package enum BackOffWorkload {
    /// The counts a run produced.
    package struct Outcome: Sendable, Equatable {
        /// Attempts made.
        package var attempts: Int
        /// Attempts that connected before their time-out.
        package var connected: Int
        /// Attempts that timed out.
        package var timedOut: Int
    }

    /// Runs the loop in `simulation` for `duration` of virtual time.
    ///
    /// - Returns: how many attempts connected and how many timed out.
    package static func run(in simulation: Simulation, for duration: Duration) async throws -> Outcome {
        let environment = simulation.environment
        let observers = [Observer(name: "a", trace: environment.trace), Observer(name: "b", trace: environment.trace)]
        return try await simulation.run(limit: duration + .seconds(10)) {
            let clock = environment.clock
            let end = clock.now.advanced(by: duration)
            var outcome = Outcome(attempts: 0, connected: 0, timedOut: 0)
            while clock.now < end {
                outcome.attempts += 1
                let connectDelay = environment.random.duration(in: .milliseconds(500) ... .seconds(4))
                let connected = await race(environment, work: connectDelay, timeout: .seconds(3))
                if connected { outcome.connected += 1 } else { outcome.timedOut += 1 }
                for observer in observers { await observer.observe(attempt: outcome.attempts, connected: connected) }
                let jitter = environment.random.duration(in: .zero ... .milliseconds(250))
                try await clock.sleep(for: .seconds(2) + jitter)
            }
            return outcome
        }
    }

    /// Sleeps `work` against a `timeout`, in two tasks; returns whether the work finished first.
    private static func race(_ environment: AirlinkEnvironment, work: Duration, timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask(executorPreference: environment.executor) {
                // try?: cancelled when the timeout won the race: the work did not finish.
                (try? await environment.clock.sleep(for: work)) != nil
            }
            group.addTask(executorPreference: environment.executor) {
                // try?: cancelled when the work won the race; the group takes the first answer.
                _ = try? await environment.clock.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    private actor Observer {
        let name: String
        let trace: any TraceSink
        var seen = 0

        init(name: String, trace: any TraceSink) {
            self.name = name
            self.trace = trace
        }

        func observe(attempt: Int, connected: Bool) {
            seen += 1
            trace.record("observer", "\(name) attempt=\(attempt) \(connected ? "connected" : "timed-out") seen=\(seen)")
        }
    }
}
