/// A characteristic descriptor as a GATT client discovers it (Core Spec Vol 3, Part G, 3.3.3 and 4.7.1).
public struct GATTDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// The descriptor's type, for example 0x2902 for the Client Characteristic Configuration.
    public var uuid: BluetoothUUID
    /// The descriptor's handle.
    public var handle: ATTHandle

    /// Creates a descriptor value.
    ///
    /// - Parameters:
    ///   - uuid: the descriptor's type.
    ///   - handle: the descriptor's handle.
    public init(uuid: BluetoothUUID, handle: ATTHandle) {
        self.uuid = uuid
        self.handle = handle
    }

    /// `descriptor 2902 at 0x0013`.
    public var description: String { "descriptor \(uuid) at \(handle)" }
}
