import AirlinkCore

/// Waits longer after each failed attempt, up to a cap, with jitter drawn from the environment's
/// random source so that many devices that lost their links together do not retry in step.
///
/// Without jitter the n-th wait (from 0) is `min(maximumDelay, initialDelay × multiplierⁿ)`. Jitter
/// follows "Exponential Backoff And Jitter" (AWS Architecture Blog, 2015):
/// - ``Jitter/full``: a uniform draw in `0 ... min(maximumDelay, initialDelay × multiplierⁿ)`;
/// - ``Jitter/decorrelated``: a uniform draw in `initialDelay ... 3 × the previous wait`, capped.
///
/// In a `Simulation` the random source is seeded, so a seed reproduces every wait. An adapter that
/// goes off and on during a wait neither shortens nor restarts it, nor moves `n`: power blips do not
/// bring every device's attempts back into step (see ``ReconnectionStrategy`` for the rule).
public struct ExponentialBackoffReconnectionStrategy: ReconnectionStrategy, Hashable {
    /// How waits are randomised.
    public enum Jitter: Sendable, Hashable {
        /// No randomness: the exponential wait itself.
        case none
        /// A uniform draw between zero and the exponential wait.
        case full
        /// A uniform draw between the initial delay and three times the previous wait.
        case decorrelated
    }

    /// The first wait (and the base of every later one).
    public var initialDelay: Duration
    /// The factor each wait grows by (2 doubles it).
    public var multiplier: Double
    /// The cap on every wait, however many attempts have failed.
    public var maximumDelay: Duration
    /// The most attempts after a loss (`nil`: no limit).
    public var attempts: Int?
    /// Each attempt's connect timeout.
    public var timeout: Duration
    /// How waits are randomised.
    public var jitter: Jitter

    /// Creates the strategy.
    ///
    /// - Parameters:
    ///   - initialDelay: the first wait, positive.
    ///   - multiplier: the growth factor, at least 1.
    ///   - maximumDelay: the cap, at least `initialDelay`.
    ///   - attempts: the most attempts, or `nil` for no limit.
    ///   - timeout: each attempt's connect timeout, positive.
    ///   - jitter: how waits are randomised.
    public init(
        initialDelay: Duration, multiplier: Double = 2, maximumDelay: Duration, attempts: Int? = nil,
        timeout: Duration, jitter: Jitter = .full
    ) {
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.attempts = attempts
        self.timeout = timeout
        self.jitter = jitter
    }

    /// The next attempt, after a wait that grows with each failure.
    public func nextAttempt(after history: ReconnectionHistory, random: any RandomSource) -> ReconnectionAttempt? {
        if let attempts, history.attemptsMade >= attempts { return nil }
        let delay: Duration
        switch jitter {
        case .none:
            delay = exponentialDelay(history.attemptsMade)
        case .full:
            delay = random.duration(in: .zero...exponentialDelay(history.attemptsMade))
        case .decorrelated:
            let previous = history.lastDelay ?? initialDelay
            let upper = max(initialDelay, min(maximumDelay, previous * 3))
            delay = min(maximumDelay, random.duration(in: initialDelay...upper))
        }
        return ReconnectionAttempt(
            trigger: .after(delay), connectTimeout: timeout,
            remainingAttempts: attempts.map { $0 - history.attemptsMade })
    }

    /// `min(maximumDelay, initialDelay × multiplierⁿ)`, without overflowing.
    public func exponentialDelay(_ n: Int) -> Duration {
        var delay = initialDelay
        for _ in 0..<max(n, 0) {
            guard delay < maximumDelay else { break }
            delay = delay * multiplier
        }
        return min(delay, maximumDelay)
    }

    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a delay that is not positive, a cap below
    ///   the initial delay, a multiplier below 1, a negative count or a timeout that is not positive.
    public func validate() throws(AirlinkError) {
        let name = "the exponential back-off"
        if initialDelay <= .zero {
            throw .invalid("\(name) initial delay", "is \(initialDelay.text); make it positive")
        }
        if maximumDelay < initialDelay {
            throw .invalid(
                "\(name) maximum delay", "(\(maximumDelay.text)) is below its initial delay (\(initialDelay.text))")
        }
        if !(multiplier >= 1) { throw .invalid("\(name) multiplier", "is \(multiplier); pass 1 or more") }
        if let attempts, attempts < 0 { throw .invalid("\(name) attempts", "are \(attempts); pass 0 or more") }
        if timeout <= .zero { throw .invalid("\(name) timeout", "is \(timeout.text); it must be positive") }
    }
}

extension ReconnectionStrategy where Self == ExponentialBackoffReconnectionStrategy {
    /// Exponential back-off with a cap and jitter.
    ///
    /// - Parameters:
    ///   - initialDelay: the first wait.
    ///   - multiplier: the growth factor.
    ///   - maximumDelay: the cap.
    ///   - attempts: the most attempts, or `nil` for no limit.
    ///   - timeout: each attempt's connect timeout.
    ///   - jitter: `.full` (default), `.decorrelated` or `.none`.
    public static func exponential(
        initialDelay: Duration, multiplier: Double = 2, maximumDelay: Duration, attempts: Int? = nil,
        timeout: Duration, jitter: ExponentialBackoffReconnectionStrategy.Jitter = .full
    ) -> ExponentialBackoffReconnectionStrategy {
        ExponentialBackoffReconnectionStrategy(
            initialDelay: initialDelay, multiplier: multiplier, maximumDelay: maximumDelay, attempts: attempts,
            timeout: timeout, jitter: jitter)
    }
}
