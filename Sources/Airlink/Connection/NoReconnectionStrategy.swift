import AirlinkCore

/// Never reconnects: a lost link is reported at once (``/AirlinkCore/ConnectionEvent/lost(_:)``) and the
/// connection manager goes back to disconnected, whatever the adapter does afterwards.
public struct NoReconnectionStrategy: ReconnectionStrategy, Hashable {
    /// Creates the strategy.
    public init() {}

    /// Always `nil`: give up at once.
    public func nextAttempt(after history: ReconnectionHistory, random: any RandomSource) -> ReconnectionAttempt? {
        nil
    }
}

extension ReconnectionStrategy where Self == NoReconnectionStrategy {
    /// No reconnection: a lost link is reported at once.
    public static var none: NoReconnectionStrategy { NoReconnectionStrategy() }
}
