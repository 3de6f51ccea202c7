import AirlinkCore

/// A service of a recorded device: UUID, kind, handle range, includes and characteristics.
public struct RecordedService: Sendable, Hashable {
    /// The service's UUID.
    public var uuid: BluetoothUUID
    /// Whether it is primary (0x2800) rather than secondary (0x2801).
    public var isPrimary: Bool
    /// The handles from its declaration to its End Group Handle.
    public var handles: ClosedRange<ATTHandle>
    /// The start handles of the services it includes (Core Spec Vol 3, Part G, 3.2), in order.
    public var includes: [ATTHandle]
    /// Its characteristics, in handle order.
    public var characteristics: [RecordedCharacteristic]

    /// Creates a recorded service.
    public init(
        uuid: BluetoothUUID, isPrimary: Bool = true, handles: ClosedRange<ATTHandle>, includes: [ATTHandle] = [],
        characteristics: [RecordedCharacteristic] = []
    ) {
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.handles = handles
        self.includes = includes
        self.characteristics = characteristics
    }
}
