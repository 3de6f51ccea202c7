import AirlinkCore

/// Waits to see the device advertise again before each attempt: Airlink scans for it through the
/// transport, and connects as soon as an advertisement arrives.
///
/// Suits devices that go out of range for long spells: no attempt is wasted while the device is
/// away. A wait that passes ``window`` without an advertisement counts as a failed attempt. An
/// adapter power-off stops the scan; at power-on a fresh window starts, and the interrupted wait is
/// not counted.
public struct AdvertisementReconnectionStrategy: ReconnectionStrategy, Hashable {
    /// The most attempts after a loss (`nil`: no limit).
    public var attempts: Int?
    /// Each attempt's connect timeout, once the device was seen.
    public var timeout: Duration
    /// How long to wait for an advertisement before the attempt counts as failed (`nil`: forever).
    public var window: Duration?

    /// Creates the strategy.
    ///
    /// - Parameters:
    ///   - attempts: the most attempts, or `nil` for no limit.
    ///   - timeout: each attempt's connect timeout, positive.
    ///   - window: the longest wait for an advertisement, positive, or `nil` for no limit.
    public init(attempts: Int? = nil, timeout: Duration, window: Duration? = nil) {
        self.attempts = attempts
        self.timeout = timeout
        self.window = window
    }

    /// The next attempt, started by an advertisement.
    public func nextAttempt(after history: ReconnectionHistory, random: any RandomSource) -> ReconnectionAttempt? {
        if let attempts, history.attemptsMade >= attempts { return nil }
        return ReconnectionAttempt(
            trigger: .advertisement(within: window), connectTimeout: timeout,
            remainingAttempts: attempts.map { $0 - history.attemptsMade })
    }

    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a negative count or a timeout or window
    ///   that is not positive.
    public func validate() throws(AirlinkError) {
        let name = "the advertisement reconnection"
        if let attempts, attempts < 0 { throw .invalid("\(name) attempts", "are \(attempts); pass 0 or more") }
        if timeout <= .zero { throw .invalid("\(name) timeout", "is \(timeout.text); it must be positive") }
        if let window, window <= .zero {
            throw .invalid("\(name) window", "is \(window.text); make it positive, or nil to wait forever")
        }
    }
}

extension ReconnectionStrategy where Self == AdvertisementReconnectionStrategy {
    /// Reconnects when the device advertises again.
    ///
    /// - Parameters:
    ///   - attempts: the most attempts, or `nil` for no limit.
    ///   - timeout: each attempt's connect timeout.
    ///   - window: the longest wait for an advertisement, or `nil` for no limit.
    public static func whenAdvertising(
        attempts: Int? = nil, timeout: Duration, window: Duration? = nil
    ) -> AdvertisementReconnectionStrategy {
        AdvertisementReconnectionStrategy(attempts: attempts, timeout: timeout, window: window)
    }
}
