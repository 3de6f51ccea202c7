import AirlinkCore

/// What a recorded device sent while it was watched: the notifications and indications of the
/// subscribed characteristics, at their times.
public struct RecordedSession: Sendable, Hashable {
    /// How long the recording ran, from its start (the scan) to the end of the watch.
    public var duration: Duration
    /// The value handles of the characteristics subscribed to, in the order they were subscribed.
    public var subscribed: [ATTHandle]
    /// The notifications and indications received, in order.
    public var notifications: [RecordedNotification]
    /// The reads made again at the recording's read interval, in order (none without one).
    public var reads: [RecordedRead]
    /// The writes the recording made, in order, each with what followed it; the notifications that followed a
    /// write are its own, not in ``notifications``.
    public var writes: [RecordedWrite]

    /// Creates a session.
    public init(
        duration: Duration, subscribed: [ATTHandle] = [], notifications: [RecordedNotification] = [],
        reads: [RecordedRead] = [], writes: [RecordedWrite] = []
    ) {
        self.writes = writes
        self.duration = duration
        self.subscribed = subscribed
        self.notifications = notifications
        self.reads = reads
    }
}
