import AirlinkCore

/// The decisions of one device's connection, as a synchronous value: events in, actions out.
///
/// In the manner of swift-nio's `HappyEyeballs.swift`, the machine neither sleeps nor calls the
/// transport: it asks for timers and attempts (``Action``), and the driver (``ConnectionManager``)
/// reports back (``Event``). So a test drives it without any radio, advances time by hand and sees
/// exactly what happens when: 1999 ms after a loss with `.linear(wait: .seconds(2), ...)` nothing,
/// 1 ms later an attempt.
///
/// Rules it keeps:
/// - The app's `connect` is one attempt: it succeeds (``/AirlinkCore/ConnectionEvent/connected(_:)``) or fails
///   (``/AirlinkCore/ConnectionEvent/failedToConnect(_:)``). The strategy applies to links lost after that.
/// - A `.disconnected` from the transport counts only once a `.connected` of the current link was
///   seen, so a late event of a previous link is not taken for a loss of the new one.
/// - Every pending `connect` and `disconnect` finishes exactly once; a late answer to an abandoned
///   attempt is ignored (and its link closed if nobody wants it).
/// - While the adapter is off, reconnection pauses, and resumes when it is powered on. The power-off
///   neither stops nor restarts the strategy's wait: the attempt starts at the later of power-on and
///   the time the strategy planned, so a blip never shortens a back-off (a loss at 5 s with a 2 s wait
///   and the adapter off from 5.5 s to 6 s still attempts at 7 s). A blip neither counts as an
///   attempt nor resets the count: an attempt the power-off cut short is made again, not counted.
///   An advertisement window starts afresh at power-on (the device could not be heard meanwhile).
public struct ConnectionStateMachine: Sendable {
    /// The device, for messages.
    public let device: DeviceID
    /// The strategy consulted after each loss and failed attempt; may be replaced between events.
    public var strategy: any ReconnectionStrategy
    private let random: any RandomSource
    private(set) var phase: Phase = .idle
    /// Whether the adapter is powered on, as last reported.
    public private(set) var adapterPoweredOn: Bool
    private var nextID = 0
    private var linkSeen = false
    private var lossDuringAttempt: DisconnectionReason?
    private var history: ReconnectionHistory?
    private var attemptNumber = 0

    /// Creates a disconnected machine.
    ///
    /// - Parameters:
    ///   - device: the device, named in errors.
    ///   - strategy: the reconnection strategy.
    ///   - random: the random source handed to the strategy (the environment's, seeded in simulation).
    ///   - adapterPoweredOn: the adapter's state at creation.
    public init(
        device: DeviceID, strategy: any ReconnectionStrategy, random: any RandomSource, adapterPoweredOn: Bool = true
    ) {
        self.device = device
        self.strategy = strategy
        self.random = random
        self.adapterPoweredOn = adapterPoweredOn
    }

    /// The state as the app sees it.
    public var state: ConnectionState {
        switch phase {
        case .idle: .disconnected
        case .connecting: .connecting
        case .connected(let info): .connected(info)
        case .disconnecting: .disconnecting
        case .backingOff(_, let next): reconnecting(next, .waiting)
        case .awaitingAdvertisement(_, let next): reconnecting(next, .waitingForAdvertisement)
        case .reconnecting(_, let next): reconnecting(next, .connecting)
        case .awaitingAdapter(let next, _): reconnecting(next, .waitingForAdapter)
        }
    }

    private func reconnecting(_ next: ReconnectionAttempt, _ phase: ReconnectionPhase) -> ConnectionState {
        .reconnecting(attempt: attemptNumber, remainingAttempts: next.remainingAttempts, phase: phase)
    }

    /// Handles one event; returns what the driver must do, in order.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .connectRequested(let timeout): connectRequested(timeout)
        case .connectCancelled: connectCancelled()
        case .attemptSucceeded(let id, let info): attemptSucceeded(id, info)
        case .attemptFailed(let id, let error): attemptFailed(id, error)
        case .linkUp: linkUp()
        case .linkDown(let reason): linkDown(reason)
        case .disconnectRequested: disconnectRequested()
        case .disconnectCompleted: disconnectCompleted()
        case .timerFired(let id): timerFired(id)
        case .advertisementSeen: advertisementSeen()
        case .adapterChanged(let poweredOn): adapterChanged(poweredOn)
        }
    }

    // MARK: The app's requests

    private mutating func connectRequested(_ timeout: Duration) -> [Action] {
        guard case .idle = phase else {
            // ConnectionManager.connect answers every other state itself (returns, or throws operationInProgress)
            // and asks in the same actor turn: a request here would leave its waiter unanswered.
            assertionFailure("connectRequested for \(device) in \(phase): connect() asks only when disconnected")
            return []
        }
        guard adapterPoweredOn else {
            let error = AdapterMonitor.error(for: .poweredOff, operation: "connect to \(device)")!
            return [.emit(.failedToConnect(error)), .completeConnect(.failure(error))]
        }
        history = nil
        let id = newAttempt()
        phase = .connecting(id)
        return [.startAttempt(id, timeout: timeout)]
    }

    private mutating func connectCancelled() -> [Action] {
        // Tolerated late: the cancellation handler's task arrives after the attempt succeeded, failed or was
        // disconnected; there is nothing left to cancel.
        guard case .connecting(let id) = phase else { return [] }
        phase = .idle
        let error = AirlinkError(.cancelled, "the task awaiting connect() to \(device) was cancelled")
        return [.cancelAttempt(id), .emit(.failedToConnect(error)), .completeConnect(.failure(error))]
    }

    private mutating func disconnectRequested() -> [Action] {
        let forget = Action.linkUnusable(
            AirlinkError(.notConnected, "disconnect() was called for \(device); connect again first"),
            keepSubscriptions: false)
        let ending: [Action] = [forget, .emit(.terminated), .completeDisconnect]
        switch phase {
        case .idle:
            return [.completeDisconnect]
        case .disconnecting:
            return []  // tolerated: a second disconnect() joins the one under way (its waiter completes with it)
        case .connected:
            phase = .disconnecting
            return [forget, .closeLink]
        case .connecting(let id):
            phase = .idle
            let error = AirlinkError(.cancelled, "disconnect() was called while connecting to \(device)")
            return [.cancelAttempt(id), .completeConnect(.failure(error))] + ending
        case .backingOff(let timer, _):
            stopReconnecting()
            return [.cancelTimer(timer)] + ending
        case .awaitingAdvertisement(let timer, _):
            stopReconnecting()
            return [.stopWatchingAdvertisements] + (timer.map { [.cancelTimer($0)] } ?? []) + ending
        case .reconnecting(let id, _):
            stopReconnecting()
            return [.cancelAttempt(id)] + ending
        case .awaitingAdapter(_, let wait):
            stopReconnecting()
            return (wait.map { [.cancelTimer($0)] } ?? []) + ending
        }
    }

    private mutating func disconnectCompleted() -> [Action] {
        // Tolerated late: the close of an abandoned attempt's link (``attemptSucceeded(_:_:)`` while idle)
        // completes too, in whatever phase a new connect() has reached meanwhile.
        guard case .disconnecting = phase else { return [] }
        phase = .idle
        return [.emit(.terminated), .completeDisconnect]
    }

    // MARK: The transport's answers and events

    private mutating func attemptSucceeded(_ id: AttemptID, _ info: LinkInfo) -> [Action] {
        switch phase {
        case .connecting(id):
            phase = .connected(info)
            return [.linkReady(info), .emit(.connected(info)), .completeConnect(.success(info))]
                + lossDuringAttemptIfAny()
        case .reconnecting(id, _):
            phase = .connected(info)
            history = nil
            return [.linkReady(info), .emit(.reconnected(info))] + lossDuringAttemptIfAny()
        case .idle:
            return [.closeLink]  // an abandoned attempt linked after all: nobody wants that link
        case .connecting, .reconnecting, .connected, .disconnecting, .backingOff, .awaitingAdvertisement,
            .awaitingAdapter:
            // Tolerated late: the answer of an attempt cancelled since (another id); the link the current
            // phase cares about is a different attempt's or already closing, so this one is left to it.
            return []
        }
    }

    private mutating func attemptFailed(_ id: AttemptID, _ error: AirlinkError) -> [Action] {
        switch phase {
        case .connecting(id):
            phase = .idle
            return [.emit(.failedToConnect(error)), .completeConnect(.failure(error))]
        case .reconnecting(id, let next):
            if error.code == .adapterPoweredOff || !adapterPoweredOn {
                phase = .awaitingAdapter(next, wait: nil)  // not the device's fault: try again once powered on
                return []
            }
            return attemptCounted(failure: error, delay: next.delay)
        case .idle, .connecting, .reconnecting, .connected, .disconnecting, .backingOff, .awaitingAdvertisement,
            .awaitingAdapter:
            return []  // tolerated late: the failure of an attempt cancelled since (another id)
        }
    }

    private mutating func linkUp() -> [Action] {
        switch phase {
        case .connecting, .reconnecting, .connected: linkSeen = true
        case .idle, .disconnecting, .backingOff, .awaitingAdvertisement, .awaitingAdapter:
            break  // tolerated late: the link of an abandoned attempt, or one already lost or being closed
        }
        return []
    }

    private mutating func linkDown(_ reason: DisconnectionReason) -> [Action] {
        switch phase {
        case .connecting, .reconnecting:
            if linkSeen { lossDuringAttempt = reason }  // reported once the attempt answers
            return []  // unseen: the last event of a previous link
        case .connected:
            return linkSeen ? loss(reason) : []  // unseen: the last event of a previous link
        case .idle, .disconnecting, .backingOff, .awaitingAdvertisement, .awaitingAdapter:
            // Tolerated late: the transport's own report of a link the app is closing, or one already taken
            // for lost (a power-off, a loss during the attempt).
            return []
        }
    }

    private mutating func adapterChanged(_ poweredOn: Bool) -> [Action] {
        let was = adapterPoweredOn
        adapterPoweredOn = poweredOn
        switch (was, poweredOn, phase) {
        case (false, true, .awaitingAdapter(let next, .some(let wait))):
            phase = .backingOff(wait, next)  // the strategy's wait goes on; it ends when it was to end
            return []
        case (false, true, .awaitingAdapter(let next, nil)):
            return resume(next)
        case (true, false, .connected):
            return loss(.localHostTerminated)  // the transport's own `.disconnected` was not seen
        case (true, false, .backingOff(let timer, let next)):
            phase = .awaitingAdapter(next, wait: timer)  // the timer keeps running: a blip must not shorten it
            return []
        case (true, false, .awaitingAdvertisement(let timer, let next)):
            phase = .awaitingAdapter(next, wait: nil)
            return [.stopWatchingAdvertisements] + (timer.map { [.cancelTimer($0)] } ?? [])
        default:
            // Nothing waits on the adapter: a report of the state already known, a power-off during an attempt
            // (the transport fails it) or while disconnected or disconnecting (no reconnection to pause).
            return []
        }
    }

    // MARK: Reconnection

    private mutating func timerFired(_ id: TimerID) -> [Action] {
        switch phase {
        case .backingOff(id, let next):
            let attempt = newAttempt()
            phase = .reconnecting(attempt, next)
            return [.startAttempt(attempt, timeout: next.connectTimeout)]
        case .awaitingAdapter(let next, id):
            phase = .awaitingAdapter(next, wait: nil)  // the wait is over; the attempt waits for power-on
            return []
        case .awaitingAdvertisement(id, let next):
            let window = if case .advertisement(let within?) = next.trigger { within.text } else { "its window" }
            let error = AirlinkError(.timeout, "\(device) did not advertise within \(window), so no attempt was made")
            return [.stopWatchingAdvertisements] + attemptCounted(failure: error, delay: nil)
        default:
            return []  // tolerated late: a timer that fired as it was cancelled (its task had already woken)
        }
    }

    private mutating func advertisementSeen() -> [Action] {
        // Tolerated late: the watcher hands each advertisement over in a task of its own, so one heard as the
        // watch stopped arrives after it.
        guard case .awaitingAdvertisement(let timer, let next) = phase else { return [] }
        let attempt = newAttempt()
        phase = .reconnecting(attempt, next)
        return [.stopWatchingAdvertisements] + (timer.map { [.cancelTimer($0)] } ?? [])
            + [.startAttempt(attempt, timeout: next.connectTimeout)]
    }

    private mutating func loss(_ reason: DisconnectionReason) -> [Action] {
        // The reason is in the message, which is what apps print; `description` (and so the trace) reads as before.
        let error = AirlinkError(.linkLost, "the link to \(device) was lost (\(reason))")
        history = ReconnectionHistory(attemptsMade: 0, lastDelay: nil, lastError: error)
        attemptNumber = 0
        phase = .idle
        return [.linkUnusable(error, keepSubscriptions: true), .emit(.lost(error))] + decide()
    }

    private mutating func lossDuringAttemptIfAny() -> [Action] {
        guard let reason = lossDuringAttempt else { return [] }
        lossDuringAttempt = nil
        return loss(reason)
    }

    private mutating func attemptCounted(failure: AirlinkError, delay: Duration?) -> [Action] {
        history?.attemptsMade += 1
        history?.lastError = failure
        history?.lastDelay = delay
        return decide()
    }

    /// Asks the strategy what to do after the loss or a failure, and does it.
    private mutating func decide() -> [Action] {
        guard let history else {
            assertionFailure("decide() for \(device) in \(phase) without a history: a loss or an attempt sets one")
            return []
        }
        guard let next = strategy.nextAttempt(after: history, random: random) else {
            stopReconnecting()
            return history.attemptsMade > 0 ? [.emit(.gaveUp(history.lastError))] : []
        }
        if let problem = next.problem() {
            stopReconnecting()
            let error = AirlinkError(
                .invalidArgument, "the reconnection strategy \(type(of: strategy)) planned \(problem)",
                cause: .underlying(history.lastError))
            return [.emit(.gaveUp(error))]
        }
        attemptNumber += 1
        let announce = Action.emit(
            .willReconnect(attempt: attemptNumber, remainingAttempts: next.remainingAttempts, trigger: next.trigger))
        return [announce] + schedule(next)
    }

    /// Starts waiting for `next`'s trigger. A delay runs even while the adapter is off, so that
    /// power-on cannot shorten it.
    private mutating func schedule(_ next: ReconnectionAttempt) -> [Action] {
        switch next.trigger {
        case .after(let delay):
            let timer = newTimer()
            phase = adapterPoweredOn ? .backingOff(timer, next) : .awaitingAdapter(next, wait: timer)
            return [.startTimer(timer, after: delay)]
        case .advertisement:
            return resume(next)
        }
    }

    /// Goes on with `next` once its wait is over and the adapter is on: attempts at once after a
    /// delay, or watches for an advertisement (a fresh window).
    private mutating func resume(_ next: ReconnectionAttempt) -> [Action] {
        guard adapterPoweredOn else {
            phase = .awaitingAdapter(next, wait: nil)
            return []
        }
        switch next.trigger {
        case .after:
            let attempt = newAttempt()
            phase = .reconnecting(attempt, next)
            return [.startAttempt(attempt, timeout: next.connectTimeout)]
        case .advertisement(let within):
            let timer = within.map { _ in newTimer() }
            phase = .awaitingAdvertisement(timer, next)
            var actions: [Action] = [.watchAdvertisements]
            if let timer, let within { actions.append(.startTimer(timer, after: within)) }
            return actions
        }
    }

    private mutating func stopReconnecting() {
        phase = .idle
        history = nil
    }

    private mutating func newAttempt() -> AttemptID {
        nextID += 1
        linkSeen = false
        lossDuringAttempt = nil
        return AttemptID(rawValue: nextID)
    }

    private mutating func newTimer() -> TimerID {
        nextID += 1
        return TimerID(rawValue: nextID)
    }
}
