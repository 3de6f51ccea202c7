import AirlinkCore

/// A descriptor of a remote characteristic, as an object: read and write.
///
/// The Client Characteristic Configuration (0x2902) is written through
/// ``RemoteCharacteristic/setNotifying(_:)``, so that Airlink restores it after a reconnection.
public final class RemoteDescriptor: Sendable {
    /// The descriptor's type.
    public let uuid: BluetoothUUID
    /// Its ATT handle as discovered on the current link; it may change after Service Changed.
    public let handle: ATTHandle
    /// The characteristic it belongs to.
    public let characteristicUUID: BluetoothUUID
    let manager: DeviceService
    let watchdog: WatchdogRunner

    init(_ descriptor: GATTDescriptor, characteristic: BluetoothUUID, manager: DeviceService, watchdog: WatchdogRunner)
    {
        self.uuid = descriptor.uuid
        self.handle = descriptor.handle
        self.characteristicUUID = characteristic
        self.manager = manager
        self.watchdog = watchdog
    }

    /// Reads the descriptor.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` from the watchdog; what
    ///   ``DeviceService/readDescriptor(_:of:)`` throws.
    public func read() async throws(AirlinkError) -> [UInt8] {
        let (manager, uuid, characteristic) = (self.manager, self.uuid, characteristicUUID)
        return try await watchdog.operation("read descriptor \(uuid) of \(characteristic)") {
            () async throws(AirlinkError) in
            try await manager.readDescriptor(uuid, of: characteristic)
        }
    }

    /// Writes the descriptor.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for the CCCD (use
    ///   ``RemoteCharacteristic/setNotifying(_:)``); ``/AirlinkCore/AirlinkError/Code/timeout`` from the watchdog; what
    ///   ``DeviceService/writeDescriptor(_:to:of:)`` throws.
    public func write(_ bytes: [UInt8]) async throws(AirlinkError) {
        let (manager, uuid, characteristic) = (self.manager, self.uuid, characteristicUUID)
        try await watchdog.operation("write descriptor \(uuid) of \(characteristic)") {
            () async throws(AirlinkError) in
            try await manager.writeDescriptor(bytes, to: uuid, of: characteristic)
        }
    }
}
