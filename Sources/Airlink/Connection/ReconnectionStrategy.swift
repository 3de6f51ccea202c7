import AirlinkCore

/// Decides whether and when a lost link is re-established: a plain value, asked after each loss and
/// each failed attempt.
///
/// Airlink ships ``NoReconnectionStrategy`` (`.none`), ``LinearReconnectionStrategy`` (`.linear`),
/// ``ExponentialBackoffReconnectionStrategy`` (`.exponential`) and
/// ``AdvertisementReconnectionStrategy`` (`.whenAdvertising`). Write your own by implementing
/// ``nextAttempt(after:random:)``; it must be a pure function of its arguments (draw randomness from
/// `random` only), so that a simulation's seed reproduces every decision.
///
/// While the adapter is off no attempt is made, but a planned delay keeps running: the attempt
/// starts at the later of power-on and the time the strategy planned (the loss or failure plus the
/// delay), so an adapter that goes off and on never shortens a wait and every blip does not restart
/// a back-off in step with other devices. A blip is not a failed attempt: the count in
/// ``ReconnectionHistory/attemptsMade`` neither grows nor resets, and an attempt the power-off cut
/// short is made again after power-on without being counted. An advertisement window
/// (``/AirlinkCore/ReconnectionTrigger/advertisement(within:)``) starts afresh at power-on, since the device
/// could not be heard while the adapter was off.
///
/// ```swift
/// struct TwiceQuickly: ReconnectionStrategy {
///     func nextAttempt(after history: ReconnectionHistory, random: any RandomSource) -> ReconnectionAttempt? {
///         history.attemptsMade < 2
///             ? ReconnectionAttempt(trigger: .after(.milliseconds(100)), connectTimeout: .seconds(1),
///                                   remainingAttempts: 2 - history.attemptsMade)
///             : nil
///     }
/// }
/// ```
public protocol ReconnectionStrategy: Sendable {
    /// The next attempt to make, or `nil` to give up.
    ///
    /// - Parameters:
    ///   - history: the attempts made since the link was lost and the last error.
    ///   - random: the environment's random source, for jitter (seeded in simulation).
    func nextAttempt(after history: ReconnectionHistory, random: any RandomSource) -> ReconnectionAttempt?

    /// Checks the strategy's parameters; ``ConnectionManager/connect(timeout:)`` calls it first.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the parameter that is out of range.
    func validate() throws(AirlinkError)
}

extension ReconnectionStrategy {
    /// Accepts any parameters.
    public func validate() throws(AirlinkError) {}
}

/// What the strategy knows when it decides: the attempts made since the loss and how the last ended.
public struct ReconnectionHistory: Sendable, Hashable {
    /// Failed attempts since the link was lost (0 right after the loss).
    public var attemptsMade: Int
    /// The delay waited before the last attempt (`nil` right after the loss), for decorrelated jitter.
    public var lastDelay: Duration?
    /// The loss, or the last attempt's failure.
    public var lastError: AirlinkError

    /// Creates a history.
    ///
    /// - Parameters:
    ///   - attemptsMade: failed attempts since the loss.
    ///   - lastDelay: the delay before the last attempt.
    ///   - lastError: the loss or the last failure.
    public init(attemptsMade: Int, lastDelay: Duration?, lastError: AirlinkError) {
        self.attemptsMade = attemptsMade
        self.lastDelay = lastDelay
        self.lastError = lastError
    }
}

/// One reconnection attempt as a strategy plans it.
public struct ReconnectionAttempt: Sendable, Hashable {
    /// What starts the attempt.
    public var trigger: ReconnectionTrigger
    /// How long the attempt may take to connect (positive).
    public var connectTimeout: Duration
    /// How many attempts remain, this one included (`nil`: no limit); reported in events.
    public var remainingAttempts: Int?

    /// Creates an attempt.
    ///
    /// - Parameters:
    ///   - trigger: what starts it.
    ///   - connectTimeout: its connect timeout, positive.
    ///   - remainingAttempts: the attempts left, this one included, or `nil`.
    public init(trigger: ReconnectionTrigger, connectTimeout: Duration, remainingAttempts: Int?) {
        self.trigger = trigger
        self.connectTimeout = connectTimeout
        self.remainingAttempts = remainingAttempts
    }

    /// The delay before the attempt, for a delayed trigger.
    public var delay: Duration? {
        if case .after(let delay) = trigger { return delay }
        return nil
    }

    /// The problem with this plan, if any: a negative delay or a timeout that is not positive.
    func problem() -> String? {
        if connectTimeout <= .zero { return "a connect timeout of \(connectTimeout.text); it must be positive" }
        switch trigger {
        case .after(let delay) where delay < .zero:
            return "a delay of \(delay.text); it must not be negative"
        case .advertisement(.some(let within)) where within <= .zero:
            return "an advertisement wait of \(within.text); it must be positive"
        default:
            return nil
        }
    }
}

extension AirlinkError {
    /// The error for a parameter of a strategy (or any API) that is out of range.
    static func invalid(_ what: String, _ problem: String) -> AirlinkError {
        AirlinkError(.invalidArgument, "\(what) \(problem)")
    }
}
