import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A progress line for a long simulation on a terminal: the virtual time reached and the share of
/// the run, rewritten in place on standard error at most once a second of real time, and cleared
/// when the run ends. Short runs (under a second of real time) print nothing.
final class SimulationProgress: Sendable {
    private let total: Duration
    private let started = ContinuousClock.now
    private let lastShown = Mutex<ContinuousClock.Instant?>(nil)
    private let label: @Sendable (Duration, Duration) -> String

    /// A progress line for a run of `total` virtual time.
    init(total: Duration) {
        self.total = total
        label = { reached, total in
            "simulating: \(reached.formatted(.units(allowed: [.hours, .minutes, .seconds]))) of "
                + "\(total.formatted(.units(allowed: [.hours, .minutes, .seconds]))) virtual time"
        }
    }

    /// A progress line for `total` runs: `exploring: 120 of 2000 seeds`.
    init(runs total: Int, verb: String) {
        self.total = .seconds(total)
        label = { reached, total in
            "\(verb): \(reached.components.seconds) of \(total.components.seconds) seeds"
        }
    }

    /// Shows that the run reached `reached` of virtual time.
    @Sendable func show(_ reached: Duration) {
        let now = ContinuousClock.now
        let due = lastShown.withLock { last -> Bool in
            guard started.duration(to: now) >= .seconds(1), last.map({ $0.duration(to: now) >= .seconds(1) }) ?? true
            else { return false }
            last = now
            return true
        }
        let finished = reached >= total
        guard due || (finished && lastShown.withLock({ $0 != nil })) else { return }
        let percent = Int((reached / total * 100).rounded(.down))
        let line =
            finished
            ? "\r\u{1B}[K"
            : "\r\u{1B}[K\(label(reached, total)) (\(percent)%), "
                + "\(started.duration(to: now).formatted(.units(allowed: [.seconds], width: .narrow))) real"
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
