import Logging

/// How much a simulation (or an app's logger) says: the least severe level that is logged, so that an app sets
/// it without depending on swift-log itself. The levels are swift-log's, from the most verbose to the least.
///
/// ```swift
/// let quiet = Simulation(seed: 7)                      // warnings and worse only
/// let chatty = Simulation(seed: 7, logLevel: .info)    // connections, discoveries, link losses too
/// ```
public enum AirlinkLogLevel: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Everything, down to each step of the layers.
    case trace
    /// Details for debugging: each discovered device, each request.
    case debug
    /// What happens in normal operation: connections, link losses the app handles (reconnections).
    case info
    /// Normal but significant conditions.
    case notice
    /// What needs attention: a reconnection that gave up, notifications that could not be restored.
    case warning
    /// Errors.
    case error
    /// Failures that stop the component.
    case critical

    /// The swift-log level, for a logger of your own.
    public var loggerLevel: Logger.Level {
        switch self {
        case .trace: .trace
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        case .critical: .critical
        }
    }

    /// Whether `lhs` is more verbose than `rhs`.
    public static func < (lhs: AirlinkLogLevel, rhs: AirlinkLogLevel) -> Bool {
        lhs.loggerLevel < rhs.loggerLevel
    }
}
