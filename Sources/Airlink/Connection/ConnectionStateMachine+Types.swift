import AirlinkCore

extension ConnectionStateMachine {
    /// Identifies one connection attempt, so that a late answer to an abandoned one is recognised.
    public struct AttemptID: Hashable, Sendable, CustomStringConvertible {
        /// The attempt's number, from 1, per machine.
        public let rawValue: Int

        /// `attempt#3`.
        public var description: String { "attempt#\(rawValue)" }
    }

    /// Identifies one timer, so that a timer that fires after it was cancelled is ignored.
    public struct TimerID: Hashable, Sendable, CustomStringConvertible {
        /// The timer's number, per machine (shared with attempts).
        public let rawValue: Int

        /// `timer#4`.
        public var description: String { "timer#\(rawValue)" }
    }

    /// What the machine is told: the app's requests, the transport's answers and events, timers.
    public enum Event: Sendable, Hashable {
        /// The app called `connect(timeout:)` (the driver rejects it first unless disconnected).
        case connectRequested(timeout: Duration)
        /// The task awaiting the app's `connect` was cancelled.
        case connectCancelled
        /// The transport's `connect` of an attempt returned the link.
        case attemptSucceeded(AttemptID, LinkInfo)
        /// The transport's `connect` of an attempt failed.
        case attemptFailed(AttemptID, AirlinkError)
        /// The transport reported `.connected` for the device.
        case linkUp
        /// The transport reported `.disconnected` for the device.
        case linkDown(DisconnectionReason)
        /// The app called `disconnect()`.
        case disconnectRequested
        /// The transport's `disconnect` returned.
        case disconnectCompleted
        /// A timer the machine started has fired.
        case timerFired(TimerID)
        /// The device was seen advertising while the machine watched for it.
        case advertisementSeen
        /// The adapter was powered on or off.
        case adapterChanged(poweredOn: Bool)
    }

    /// What the driver must do, in order.
    public enum Action: Sendable, Hashable {
        /// Call the transport's `connect` with this timeout; report the outcome with the attempt's id.
        case startAttempt(AttemptID, timeout: Duration)
        /// Cancel an attempt's task (its late answer, if any, is ignored or closed).
        case cancelAttempt(AttemptID)
        /// Call the transport's `disconnect`, then report ``Event/disconnectCompleted``.
        case closeLink
        /// Start a timer; report ``Event/timerFired(_:)`` when it fires.
        case startTimer(TimerID, after: Duration)
        /// Cancel a timer.
        case cancelTimer(TimerID)
        /// Scan for the device; report ``Event/advertisementSeen`` when it advertises.
        case watchAdvertisements
        /// Stop scanning for the device.
        case stopWatchingAdvertisements
        /// Finish the app's pending `connect` with this result.
        case completeConnect(Result<LinkInfo, AirlinkError>)
        /// Finish the app's pending `disconnect` calls.
        case completeDisconnect
        /// The link is usable: bind the services to it and restore enabled notifications.
        case linkReady(LinkInfo)
        /// The link is gone: fail pending operations with this error; forget the notifications the
        /// app enabled unless they are to be restored after a reconnection.
        case linkUnusable(AirlinkError, keepSubscriptions: Bool)
        /// Report an event to the app.
        case emit(ConnectionEvent)
    }

    /// The machine's internal phase.
    enum Phase: Sendable, Hashable {
        case idle
        case connecting(AttemptID)
        case connected(LinkInfo)
        case disconnecting
        case backingOff(TimerID, ReconnectionAttempt)
        case awaitingAdvertisement(TimerID?, ReconnectionAttempt)
        case reconnecting(AttemptID, ReconnectionAttempt)
        /// The adapter is off; `wait` is the strategy's delay still running, if any.
        case awaitingAdapter(ReconnectionAttempt, wait: TimerID?)
    }
}
