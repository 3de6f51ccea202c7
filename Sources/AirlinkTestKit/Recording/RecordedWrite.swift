import AirlinkCore

/// A write a recording made, and what the device did next: its answer (accepted, or an ATT error) and the
/// notifications and indications that arrived within the recording's write window, each with its delay.
///
/// A replay answers the same write (the same value to the same handle) the same way: the same error, or the
/// same notifications after the same delays (Docs/RecordReplay.md).
public struct RecordedWrite: Sendable, Hashable {
    /// When the write was asked for, from the recording's start.
    public var time: Duration
    /// The value handle written to.
    public var handle: ATTHandle
    /// The bytes written.
    public var value: [UInt8]
    /// The ATT error the device answered with; `nil` when it accepted the write.
    public var error: ATTError?
    /// What arrived within the window after the device answered: each notification's ``RecordedNotification/time``
    /// counts from the answer.
    public var followed: [RecordedNotification]

    /// Creates a write record.
    public init(
        time: Duration, handle: ATTHandle, value: [UInt8], error: ATTError? = nil,
        followed: [RecordedNotification] = []
    ) {
        self.time = time
        self.handle = handle
        self.value = value
        self.error = error
        self.followed = followed
    }
}
