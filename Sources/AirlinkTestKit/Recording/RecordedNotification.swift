import AirlinkCore

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
