/// How a replayed recording sends its session's notifications.
public enum RecordingReplay: Sendable, Hashable {
    /// Each notification once, at its recorded time from when the simulation adds the peripheral.
    case once
    /// The session over and over, one session's duration apart, until `until` (from when it is added).
    case loop(until: Duration)

    /// The most notifications a replay schedules (as a scenario's periodic events are limited).
    public static let maximumNotifications = 100_000
}
