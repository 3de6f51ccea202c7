import Airlink
import AirlinkCore
import AirlinkSimulation

/// Drives a `ConnectionStateMachine` by hand, in the manner of swift-nio's HappyEyeballs tests:
/// time is a number the test advances; timers and connect attempts the machine asks for are kept
/// here and fire when time passes them. An attempt nobody answers times out at its timeout, as a
/// transport's would.
struct MachineHarness {
    typealias Machine = ConnectionStateMachine

    var machine: Machine
    /// Virtual time since the harness began.
    private(set) var now: Duration = .zero
    /// Every action, with the time it was asked for.
    private(set) var log: [(time: Duration, action: Machine.Action)] = []
    private var timers: [(id: Machine.TimerID, deadline: Duration)] = []
    private var attempts: [(id: Machine.AttemptID, deadline: Duration)] = []

    init(strategy: some ReconnectionStrategy, seed: UInt64 = 1, device: DeviceID = "C0:FF:EE:00:00:01") {
        machine = Machine(device: device, strategy: strategy, random: SeededRandomSource(seed: seed))
    }

    /// The attempt the machine is waiting on, if any.
    var pendingAttempt: Machine.AttemptID? { attempts.last?.id }

    /// Whether a timer is armed.
    var hasArmedTimer: Bool { !timers.isEmpty }

    /// Sends an event; returns the actions it caused.
    @discardableResult
    mutating func send(_ event: Machine.Event) -> [Machine.Action] {
        if case .attemptSucceeded(let id, _) = event { attempts.removeAll { $0.id == id } }
        if case .attemptFailed(let id, _) = event { attempts.removeAll { $0.id == id } }
        let actions = machine.handle(event)
        for action in actions {
            log.append((now, action))
            switch action {
            case .startTimer(let id, let delay): timers.append((id, now + delay))
            case .cancelTimer(let id): timers.removeAll { $0.id == id }
            case .startAttempt(let id, let timeout): attempts.append((id, now + timeout))
            case .cancelAttempt(let id): attempts.removeAll { $0.id == id }
            default: break
            }
        }
        return actions
    }

    /// Connects (the app's attempt succeeds at once) and reports the link's `.connected`.
    mutating func connectNow(mtu: Int = 23) {
        send(.connectRequested(timeout: .seconds(5)))
        succeedAttempt(mtu: mtu)
    }

    /// Answers the pending attempt with success, and the transport's `.connected` event.
    @discardableResult
    mutating func succeedAttempt(mtu: Int = 23) -> [Machine.Action] {
        guard let id = pendingAttempt else { return [] }
        send(.linkUp)
        return send(.attemptSucceeded(id, LinkInfo(mtu: mtu)))
    }

    /// Answers the pending attempt with a failure.
    @discardableResult
    mutating func failAttempt(_ error: AirlinkError = AirlinkError(.connectionFailed, "refused")) -> [Machine.Action] {
        guard let id = pendingAttempt else { return [] }
        return send(.attemptFailed(id, error))
    }

    /// Advances time, firing timers and timing out attempts as their deadlines pass, in order;
    /// returns the actions caused.
    @discardableResult
    mutating func advance(by duration: Duration) -> [Machine.Action] {
        let end = now + duration
        var caused: [Machine.Action] = []
        while true {
            let timer = timers.min { $0.deadline < $1.deadline }
            let attempt = attempts.min { $0.deadline < $1.deadline }
            let next = [timer?.deadline, attempt?.deadline].compactMap { $0 }.min()
            guard let next, next <= end else { break }
            now = next
            if let timer, timer.deadline == next {
                timers.removeAll { $0.id == timer.id }
                caused += send(.timerFired(timer.id))
            } else if let attempt {
                caused += send(.attemptFailed(attempt.id, AirlinkError(.timeout, "connect timed out")))
            }
        }
        now = end
        return caused
    }

    /// The events emitted so far, by name.
    var eventNames: [String] {
        log.compactMap { entry in
            if case .emit(let event) = entry.action { return event.name }
            return nil
        }
    }

    /// The times at which attempts started.
    var attemptTimes: [Duration] {
        log.compactMap { entry in
            if case .startAttempt = entry.action { return entry.time }
            return nil
        }
    }
}
