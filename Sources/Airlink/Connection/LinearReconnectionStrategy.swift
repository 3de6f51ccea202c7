import AirlinkCore

/// Waits the same time before each attempt, up to a number of attempts, each with its own connect
/// timeout: WLXBluetoothDevice's `WLXLinearReconnectionStrategy`.
///
/// `.linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3))`: 2 s after the loss the first
/// attempt starts and may take 3 s; if it fails, 2 s later the second; after the third failure,
/// the strategy gives up. An adapter off and on during a wait does not shorten it: with the link
/// lost at 5 s and the adapter off from 5.5 s to 6 s, the first attempt still starts at 7 s (see
/// ``ReconnectionStrategy`` for the rule).
public struct LinearReconnectionStrategy: ReconnectionStrategy, Hashable {
    /// How long after the loss, and after each failed attempt, the next attempt starts.
    public var wait: Duration
    /// How many attempts follow one loss before the strategy gives up (at least 1).
    public var attempts: Int
    /// Each attempt's connect timeout.
    public var timeout: Duration

    /// Creates the strategy.
    ///
    /// - Parameters:
    ///   - wait: the wait before each attempt, not negative.
    ///   - attempts: the most attempts, not negative.
    ///   - timeout: each attempt's connect timeout, positive.
    public init(wait: Duration, attempts: Int, timeout: Duration) {
        self.wait = wait
        self.attempts = attempts
        self.timeout = timeout
    }

    /// The next attempt after `wait`, while attempts remain.
    public func nextAttempt(after history: ReconnectionHistory, random: any RandomSource) -> ReconnectionAttempt? {
        guard history.attemptsMade < attempts else { return nil }
        return ReconnectionAttempt(
            trigger: .after(wait), connectTimeout: timeout, remainingAttempts: attempts - history.attemptsMade)
    }

    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a negative wait or count, or a timeout
    ///   that is not positive.
    public func validate() throws(AirlinkError) {
        if wait < .zero { throw .invalid("the linear reconnection wait", "is \(wait.text); it must not be negative") }
        if attempts < 0 { throw .invalid("the linear reconnection attempts", "are \(attempts); pass 0 or more") }
        if timeout <= .zero {
            throw .invalid("the linear reconnection timeout", "is \(timeout.text); it must be positive")
        }
    }
}

extension ReconnectionStrategy where Self == LinearReconnectionStrategy {
    /// Waits `wait` before each of up to `attempts` attempts, each with a connect `timeout`.
    ///
    /// - Parameters:
    ///   - wait: the wait before each attempt.
    ///   - attempts: the most attempts after a loss.
    ///   - timeout: each attempt's connect timeout.
    public static func linear(wait: Duration, attempts: Int, timeout: Duration) -> LinearReconnectionStrategy {
        LinearReconnectionStrategy(wait: wait, attempts: attempts, timeout: timeout)
    }
}
