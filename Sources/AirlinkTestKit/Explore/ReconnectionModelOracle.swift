import Airlink
import AirlinkCore
import AirlinkSimulation

/// Each reconnection strategy's reference model, from its definition, against the events of a run.
///
/// After each loss the attempts are numbered from 1, announce the remaining count the strategy defines
/// (`attempts − made`, none for no limit) and the wait its definition gives for attempt n (linear: `wait`;
/// exponential without jitter: `min(maximumDelay, initialDelay × multiplierⁿ)`; full jitter: within `0 ...
/// that`; decorrelated: within `initialDelay ... 3 × the previous wait`, capped). An attempt starts no earlier
/// than the announcement plus its wait, and if the adapter is off then, no earlier than power-on: a blip pauses
/// a wait, never shortens it (a power-on the adapter goes off again at in the same instant may start the
/// attempt, which starts again at the next power-on). It ends within its connect timeout of its start (adapter
/// on throughout), and it starts on air (the radio's `connecting`) exactly then: the wait is the whole slack
/// the definition allows. `gaveUp` comes exactly when the attempts are spent, and never with no limit; the
/// `none` strategy makes no attempt.
///
/// On a real transport (the BlueZ explorer) times are real and recorded by another task than the one that
/// decided them: ``tolerance`` widens each instant the definition gives by what that costs.
///
/// Per app and device. With several apps on the adapter, a loss may be another app's `disconnect()` (it takes
/// the link down for every app, as on BlueZ): it is a loss like any other, and the model applies from it. An
/// attempt that finds the link another app holds, or another app's attempt under way, ends at its start
/// without going on air; otherwise an attempt on air must start exactly when the definition says.
public struct ReconnectionModelOracle: ExplorationOracle {
    /// How far from the definition's instant a recorded attempt may fall: none on the virtual radio, whose
    /// records carry the instant things happened.
    public struct Tolerance: Sendable, Hashable {
        /// How much earlier an attempt's start or end may be recorded than the definition allows: the time an
        /// event (the announcement, power-on) takes to reach the recorder, which stamps it that much late.
        public var early: Duration
        /// How much later an attempt may start (and end) than the definition says: a real timer firing late
        /// and the hop from the layers' timer to the transport's call, on a busy machine.
        public var late: Duration

        /// A tolerance from its two sides.
        public init(early: Duration, late: Duration) {
            self.early = early
            self.late = late
        }

        /// None: the virtual radio.
        public static let exact = Tolerance(early: .zero, late: .zero)
    }

    /// `reconnection`.
    public var name: String { "reconnection" }

    /// How far from the definition's instants the records may fall.
    public var tolerance: Tolerance

    /// Creates the oracle; `tolerance` is ``Tolerance/exact`` on the virtual radio.
    public init(tolerance: Tolerance = .exact) { self.tolerance = tolerance }

    /// How late after its planned start an attempt may end beyond its timeout: the link-layer round trips.
    static let slack: Duration = .milliseconds(100)

    /// Attempts out of step with the strategy's definition, per device.
    public func violations(in observation: ExplorationObservation) -> [String] {
        observation.eachApp(appViolations)
    }

    private func appViolations(in observation: ExplorationObservation) -> [String] {
        var violations: [String] = []
        let off = observation.adapterOff
        // When the first central started each attempt on air, per device, in one pass over the trace.
        var starts: [DeviceID: [Duration]] = [:]
        for record in observation.records {
            if case .connecting(0, let device, _) = record.event {
                starts[device, default: []].append(record.time.offset)
            }
        }
        for client in observation.connectionClients {
            let strategy = client.reconnection
            let events = observation.connectionEvents(of: client.device)
            // The app's own connects put attempts on air too: one that completed before an attempt was announced is not
            // that attempt (a loss 45 ms after the app's connect succeeded falls within the early tolerance of that
            // connect's start, which must not stand for the attempt).
            let connects = observation.operations.filter { $0.name == "connect \(client.device)" }.compactMap {
                operation in operation.completions.first.map { operation.start...$0.time }
            }
            var made = 0
            var previousWait: Duration?
            var previousStart: Duration?
            var inEpisode = false
            for (index, (time, event)) in events.enumerated() {
                let at = "\(client.device) (\(strategy.name)): \(event.name) at t=\(time.scenarioText)"
                switch event {
                case .lost:
                    inEpisode = true
                    made = 0
                    previousWait = nil
                case .willReconnect(let attempt, let remaining, let trigger) where inEpisode:
                    if case .none = strategy {
                        violations.append("\(at): the none strategy makes no attempt")
                        continue
                    }
                    if attempt != made + 1 {
                        violations.append("\(at): attempt \(attempt), expected \(made + 1)")
                    }
                    if let limit = strategy.attempts, remaining != limit - made {
                        violations.append(
                            "\(at): \(remaining.map(String.init) ?? "unlimited") remaining, expected \(limit - made)")
                    }
                    if strategy.attempts == nil, remaining != nil {
                        violations.append("\(at): a limit of \(remaining!) announced for a strategy with none")
                    }
                    if case .after(let wait) = trigger {
                        if let allowed = strategy.waits(attempt: made, previous: previousWait), !allowed.contains(wait)
                        {
                            violations.append(
                                "\(at): waits \(wait.scenarioText), the definition allows "
                                    + "\(allowed.lowerBound.scenarioText)...\(allowed.upperBound.scenarioText)")
                        }
                        previousWait = wait
                        let next = events.dropFirst(index + 1).first
                        if let next {
                            violations += timing(
                                at, planned: time + wait, next: next, timeout: strategy.timeout, off: off)
                        }
                        let earlier = connects.filter { $0.upperBound < time }
                        let candidates = (starts[client.device] ?? []).filter { start in
                            !earlier.contains { $0.contains(start) }
                        }
                        let (found, wrong) = start(
                            at, starts: candidates, after: previousStart, announced: time,
                            planned: time + wait, before: next?.time, off: off, shared: observation.sharedAdapter)
                        previousStart = found ?? previousStart
                        violations += wrong
                    }
                    made += 1
                case .gaveUp where inEpisode:
                    inEpisode = false
                    if let limit = strategy.attempts, made != limit {
                        violations.append("\(at): gave up after \(made) attempt(s), the strategy allows \(limit)")
                    }
                    if strategy.attempts == nil {
                        violations.append("\(at): gave up, but the strategy has no limit")
                    }
                    if made == 0 { violations.append("\(at): gave up before any attempt") }
                case .reconnected, .terminated:
                    inEpisode = false
                default:
                    break
                }
            }
        }
        return violations
    }

    /// The attempt announced at `announced` starts on air (the radio's `connecting`) exactly at `planned`, or
    /// at power-on if the adapter is off then: the definition leaves no slack once the wait is drawn (beyond
    /// ``tolerance``). An attempt the app cut short (the next connection event before it) is not judged.
    /// Returns the start found (never the previous attempt's, `after`) and the violation, if any.
    private func start(
        _ announcement: String, starts: [Duration], after previous: Duration?, announced: Duration,
        planned: Duration, before next: Duration?, off: [Range<Duration>], shared: Bool
    ) -> (found: Duration?, violations: [String]) {
        var expected = planned
        // A power-on the adapter went off again at, in the same instant: the attempt may start there (the layers
        // react to the power-on before the power-off is done) and start again at the next power-on.
        var instantlyOff: [Duration] = []
        for span in off where span.contains(expected) {
            if expected == span.lowerBound && expected != planned { instantlyOff.append(expected) }
            expected = span.upperBound
        }
        // On a shared adapter (the virtual radio only), an attempt that ends at its start found another app's
        // link (or attempt): it puts nothing on air, and the attempts on air may be another app's; one of them
        // must start exactly when the definition starts this one, or none in between. One the app's next event
        // came before (its own `disconnect()`, or another app's attempt bringing the link up) is not judged.
        if shared {
            guard let next, next > expected, !starts.contains(expected) else { return (nil, []) }  // nil: run ended
            guard let attempt = starts.first(where: { $0 >= announced }), attempt <= next else { return (nil, []) }
            return (
                nil,
                [
                    "\(announcement): no attempt started on air at t=\(expected.scenarioText), when the definition "
                        + "starts it (the first after the announcement at t=\(attempt.scenarioText))"
                ]
            )
        }
        let attempt = starts.first { start in
            start >= announced - tolerance.early && previous.map { start > $0 } ?? true
        }
        guard let attempt, next.map({ attempt <= $0 }) ?? true else { return (nil, []) }
        let allowed = (expected - tolerance.early)...(expected + tolerance.late)
        guard !allowed.contains(attempt), !instantlyOff.contains(attempt) else { return (attempt, []) }
        let within =
            tolerance == .exact
            ? ""
            : " (within \(tolerance.early.scenarioText) before, "
                + "\(tolerance.late.scenarioText) after)"
        return (
            attempt,
            [
                "\(announcement): the attempt started on air at t=\(attempt.scenarioText), the definition starts it "
                    + "at t=\(expected.scenarioText)\(within)"
            ]
        )
    }

    /// The attempt after `announced` starts at `planned` (later while the adapter is off), so the next event
    /// comes no earlier, and no later than its timeout after the start when the adapter stays on.
    private func timing(
        _ announced: String, planned: Duration, next: (time: Duration, event: ConnectionEvent), timeout: Duration?,
        off: [Range<Duration>]
    ) -> [String] {
        if case .terminated = next.event { return [] }  // the app stopped it
        var start = planned
        for span in off where span.contains(start) { start = span.upperBound }
        var violations: [String] = []
        if next.time < start - tolerance.early {
            violations.append(
                "\(announced): the attempt ended (\(next.event.name) at t=\(next.time.scenarioText)) before "
                    + "t=\(start.scenarioText), when the definition lets it start")
        }
        let interrupted = off.contains { $0.lowerBound <= next.time && $0.upperBound > start }
        if let timeout, !interrupted, next.time > start + timeout + Self.slack + tolerance.late {
            violations.append(
                "\(announced): the attempt starting at t=\(start.scenarioText) ended at t=\(next.time.scenarioText), "
                    + "beyond its timeout of \(timeout.scenarioText)")
        }
        return violations
    }
}

extension ExplorationPlan.Reconnection {
    /// The most attempts after a loss (`nil`: no limit, or not a strategy that counts them).
    var attempts: Int? {
        switch self {
        case .none: 0
        case .linear(_, let attempts, _): attempts
        case .exponential(_, _, _, let attempts, _, _): attempts
        case .whenAdvertising(let attempts, _, _): attempts
        }
    }

    /// Each attempt's connect timeout after a wait (`nil` for the advertisement strategy, whose start is
    /// an advertisement the oracle does not see).
    var timeout: Duration? {
        switch self {
        case .linear(_, _, let timeout), .exponential(_, _, _, _, let timeout, _): timeout
        case .none, .whenAdvertising: nil
        }
    }

    /// The waits the definition allows before attempt `n` (from 0), given the previous wait.
    func waits(attempt n: Int, previous: Duration?) -> ClosedRange<Duration>? {
        switch self {
        case .none, .whenAdvertising: return nil
        case .linear(let wait, _, _): return wait...wait
        case .exponential(let initial, let multiplier, let maximum, _, _, let jitter):
            var exponential = initial
            for _ in 0..<n where exponential < maximum { exponential = exponential * multiplier }
            exponential = min(exponential, maximum)
            switch jitter {
            case "none": return exponential...exponential
            case "full": return .zero...exponential
            default:
                let upper = max(initial, min(maximum, (previous ?? initial) * 3))
                return min(initial, maximum)...upper
            }
        }
    }
}
