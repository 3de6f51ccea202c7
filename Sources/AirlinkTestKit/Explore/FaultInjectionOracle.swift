import Airlink
import AirlinkCore
import AirlinkSimulation

/// The radio's faults do what their verbs say: `failNextConnects(n)` fails the next n connection attempts.
///
/// After the fault, none of the device's first n attempts to end may succeed (`connected` or
/// `reconnected`); an attempt ends with `connected`, `failedToConnect`, `reconnected`, or, during a
/// reconnection, with the next `willReconnect` or `gaveUp`. A window in which the adapter goes off or
/// another fault touches the device is not judged (a power-off cuts radio attempts short without an
/// event, so the layers' count and the radio's differ there), nor a success within 50 ms of the fault
/// or whose link came up on air (the radio's `connected`) before it: that attempt was already answered.
/// With several apps on the adapter the attempts are counted on air (each app sees only its own, and one
/// may find another app's link): of the first n `connecting` after the fault (counting first one still pending
/// at the fault, whose answer comes after it), none may bring a link up.
public struct FaultInjectionOracle: ExplorationOracle {
    /// `faults`.
    public var name: String { "faults" }

    /// Creates the oracle.
    public init() {}

    /// How long a link takes to come up once the peripheral answered: successes this soon after the
    /// fault belong to an attempt already answered.
    static let setUp: Duration = .milliseconds(50)

    /// Attempts that succeeded while an injected failure was owed to them.
    public func violations(in observation: ExplorationObservation) -> [String] {
        var violations: [String] = []
        let off = observation.adapterOff
        for action in observation.actions where action.kind == .failNextConnects {
            guard
                let device = observation.devices.first(where: {
                    $0.name == action.device || "\($0.id)" == action.device
                })?.id
            else { continue }
            let start = action.at.duration
            let events = observation.connectionEvents(of: device)
            // When links to the device came up on air: a success whose link was up before the fault
            // belongs to an attempt already answered, however long its setup (MTU, discovery) took.
            let linksUp = observation.records.compactMap { record -> Duration? in
                guard case .connected(0, device, _) = record.event else { return nil }
                return record.time.offset
            }
            var outcomes: [(time: Duration, succeeded: Bool, name: String)] = []
            var previous: ConnectionEvent?
            for (time, event) in events {
                defer { previous = event }
                guard time >= start else { continue }
                switch event {
                case .connected, .reconnected:
                    // An attempt whose link was already being set up when the fault came cannot take it.
                    let up = linksUp.last { $0 <= time }
                    if time >= start + Self.setUp, up.map({ $0 >= start }) ?? true {
                        outcomes.append((time, true, event.name))
                    }
                case .failedToConnect: outcomes.append((time, false, event.name))
                case .willReconnect, .gaveUp:
                    if case .willReconnect = previous { outcomes.append((time, false, event.name)) }
                default: break
                }
            }
            // With several apps, each app's events show its own attempts only, and an attempt may find another
            // app's link: count the attempts on air instead (the radio's `connecting`, a success its `connected`).
            if observation.apps.count > 1 {
                let attempts = Self.attemptsOnAir(to: device, from: start, observation)
                outcomes = attempts.enumerated().map { index, time in
                    let until = index + 1 < attempts.count ? attempts[index + 1] : observation.end + .seconds(1)
                    let up = linksUp.first { $0 >= time && $0 < until }
                    // (The attempt pending at the fault started before it: its outcome is judged from the fault on.)
                    return (max(up ?? time, start), up != nil, up != nil ? "connected on air" : "failed")
                }
            }
            let owed = Array(outcomes.prefix(action.count))
            guard let last = owed.last else { continue }
            let window = start...last.time
            let disturbed =
                off.contains { $0.overlaps(start..<(last.time + .milliseconds(1))) }
                || observation.actions.contains { other in
                    other.at.duration != action.at.duration && window.contains(other.at.duration)
                        && (other.device == action.device || other.device == nil)
                }
            guard !disturbed else { continue }
            if let success = owed.first(where: \.succeeded) {
                violations.append(
                    "\(device): failNextConnects count=\(action.count) \(action.failure) at "
                        + "t=\(start.scenarioText), yet an attempt succeeded (\(success.name) at "
                        + "t=\(success.time.scenarioText)) among the next \(action.count)")
            }
        }
        return violations
    }

    /// The attempts on air (the radio's `connecting`) the fault's failures are owed to, in order: those started at
    /// or after `start`, and first the one still pending then (started before, within its timeout, neither up nor
    /// timed out by `start`): the radio fails the next answers, and that attempt's answer comes after the fault.
    static func attemptsOnAir(to device: DeviceID, from start: Duration, _ observation: ExplorationObservation)
        -> [Duration]
    {
        var attempts: [(time: Duration, timeout: Duration)] = []
        var answered: [Duration] = []
        for record in observation.records {
            switch record.event {
            case .connecting(0, device, let timeout): attempts.append((record.time.offset, timeout))
            case .connected(0, device, _), .connectionAttemptTimedOut(0, device): answered.append(record.time.offset)
            default: break
            }
        }
        let pending = attempts.last { $0.time < start }.flatMap { attempt -> Duration? in
            guard attempt.time + attempt.timeout > start,
                !answered.contains(where: { $0 >= attempt.time && $0 < start })
            else { return nil }
            return attempt.time
        }
        return (pending.map { [$0] } ?? []) + attempts.map(\.time).filter { $0 >= start }
    }
}
