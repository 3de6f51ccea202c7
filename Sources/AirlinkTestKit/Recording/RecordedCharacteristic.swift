import AirlinkCore

/// A characteristic of a recorded device: declaration, properties, the value read once and its descriptors.
public struct RecordedCharacteristic: Sendable, Hashable {
    /// The characteristic's UUID.
    public var uuid: BluetoothUUID
    /// The handle of its declaration (0x2803).
    public var declarationHandle: ATTHandle
    /// The handle of its value: reads, writes and notifications use it.
    public var valueHandle: ATTHandle
    /// The declaration's properties (Core Spec Vol 3, Part G, 3.3.1.1).
    public var properties: CharacteristicProperties
    /// What reading it gave; `nil` when it does not allow reads (or was not read).
    public var value: RecordedValue?
    /// The ATT error a replay answers every write with; `nil` accepts the writes its properties allow. Not
    /// observed by recording (writes change a device): a user adds it by hand.
    public var writeError: ATTError?
    /// Its descriptors, in handle order, the CCCD (0x2902) among them.
    public var descriptors: [RecordedDescriptor]

    /// Creates a recorded characteristic.
    public init(
        uuid: BluetoothUUID, declarationHandle: ATTHandle, valueHandle: ATTHandle,
        properties: CharacteristicProperties, value: RecordedValue? = nil, writeError: ATTError? = nil,
        descriptors: [RecordedDescriptor] = []
    ) {
        self.uuid = uuid
        self.declarationHandle = declarationHandle
        self.valueHandle = valueHandle
        self.properties = properties
        self.value = value
        self.writeError = writeError
        self.descriptors = descriptors
    }
}
