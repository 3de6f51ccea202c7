import AirlinkCore

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
