/// A characteristic as a GATT client discovers it from its declaration (Core Spec Vol 3, Part G, 3.3.1).
public struct GATTCharacteristic: Hashable, Sendable, CustomStringConvertible {
    /// The characteristic's UUID (the last field of the declaration and the value attribute's type).
    public var uuid: BluetoothUUID
    /// The handle of the characteristic declaration (type 0x2803).
    public var declarationHandle: ATTHandle
    /// The handle of the characteristic value, the one reads, writes and notifications use.
    public var valueHandle: ATTHandle
    /// The operations the characteristic permits (Vol 3, Part G, 3.3.1.1).
    public var properties: CharacteristicProperties

    /// Creates a characteristic value.
    ///
    /// - Parameters:
    ///   - uuid: the characteristic's UUID.
    ///   - declarationHandle: the declaration's handle.
    ///   - valueHandle: the value's handle, normally `declarationHandle + 1`.
    ///   - properties: the declaration's properties.
    public init(
        uuid: BluetoothUUID, declarationHandle: ATTHandle, valueHandle: ATTHandle,
        properties: CharacteristicProperties
    ) {
        self.uuid = uuid
        self.declarationHandle = declarationHandle
        self.valueHandle = valueHandle
        self.properties = properties
    }

    /// `characteristic 2A19 value 0x0012 read|notify`.
    public var description: String { "characteristic \(uuid) value \(valueHandle) \(properties)" }
}
