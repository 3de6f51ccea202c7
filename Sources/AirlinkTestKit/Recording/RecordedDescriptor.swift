import AirlinkCore

/// A descriptor of a recorded characteristic: its type, handle and the value read once.
public struct RecordedDescriptor: Sendable, Hashable {
    /// The descriptor's type (0x2901 for a user description).
    public var uuid: BluetoothUUID
    /// Its handle, as the transport reported it.
    public var handle: ATTHandle
    /// What reading it gave; `nil` when it was not read.
    public var value: RecordedValue?

    /// Creates a recorded descriptor.
    public init(uuid: BluetoothUUID, handle: ATTHandle, value: RecordedValue? = nil) {
        self.uuid = uuid
        self.handle = handle
        self.value = value
    }
}
