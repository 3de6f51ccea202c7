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

    /// Creates a session.
    public init(
        duration: Duration, subscribed: [ATTHandle] = [], notifications: [RecordedNotification] = [],
        reads: [RecordedRead] = []
    ) {
        self.duration = duration
        self.subscribed = subscribed
        self.notifications = notifications
        self.reads = reads
    }
}

/// A read of a characteristic made again during the session (`--read-interval`).
public struct RecordedRead: Sendable, Hashable {
    /// When it was asked for, from the recording's start: the replay holds the value from then on.
    public var time: Duration
    /// The value handle read.
    public var handle: ATTHandle
    /// What it gave.
    public var value: RecordedValue

    /// Creates a read record.
    public init(time: Duration, handle: ATTHandle, value: RecordedValue) {
        self.time = time
        self.handle = handle
        self.value = value
    }
}

/// One notification or indication of a recorded session.
public struct RecordedNotification: Sendable, Hashable {
    /// When it arrived, from the recording's start (virtual time on the simulation, the clock's on an adapter).
    public var time: Duration
    /// The value handle it came from.
    public var handle: ATTHandle
    /// The value.
    public var value: [UInt8]

    /// Creates a notification record.
    public init(time: Duration, handle: ATTHandle, value: [UInt8]) {
        self.time = time
        self.handle = handle
        self.value = value
    }
}
