import AirlinkCore

/// A value a characteristic sent by notification or indication, as an observer receives it.
public struct CharacteristicValue: Sendable, Hashable, CustomStringConvertible {
    /// The peripheral the notification or indication came from.
    public var device: DeviceID
    /// The UUID of the service holding the characteristic (two services may share a characteristic UUID).
    public var service: BluetoothUUID
    /// The UUID of the characteristic that sent the value.
    public var characteristic: BluetoothUUID
    /// The value's bytes.
    public var bytes: [UInt8]
    /// How many values this observer missed just before this one because its buffer was full
    /// (0 almost always). Airlink never drops values silently: a gap is counted here and announced
    /// as ``/AirlinkCore/ServicesEvent/notificationsOverflowed(service:characteristic:)``.
    public var missedBefore: Int

    /// Creates a value.
    public init(
        device: DeviceID, service: BluetoothUUID, characteristic: BluetoothUUID, bytes: [UInt8], missedBefore: Int = 0
    ) {
        self.device = device
        self.service = service
        self.characteristic = characteristic
        self.bytes = bytes
        self.missedBefore = missedBefore
    }

    /// The value decoded as a typed ``/AirlinkCore/GATTValue``.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` when the bytes do not fit the type.
    public func decoded<Value: GATTValue>(as type: Value.Type = Value.self) throws(AirlinkError) -> Value {
        try Value(gattBytes: bytes)
    }

    /// `180F/2A19 [57]`, with the count of missed values when there is a gap.
    public var description: String {
        let hex = bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        let gap = missedBefore > 0 ? " (missed \(missedBefore))" : ""
        return "\(service)/\(characteristic) [\(hex.joined(separator: " "))]\(gap)"
    }
}

/// Identifies an observer added with ``DeviceService/addObserver(for:_:)``, to remove it.
public struct ObserverToken: Sendable, Hashable {
    /// The observer's number, unique per device.
    public let id: Int
    /// The UUID of the service holding the observed characteristic.
    public let service: BluetoothUUID
    /// The UUID of the characteristic whose values the observer receives.
    public let characteristic: BluetoothUUID
}
