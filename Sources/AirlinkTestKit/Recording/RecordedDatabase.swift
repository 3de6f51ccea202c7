import AirlinkCore

/// The GATT database of a recorded device, as a client discovered it, with the values read once.
public struct RecordedDatabase: Sendable, Hashable {
    /// The services in handle order, the Generic Access (0x1800) and Generic Attribute (0x1801) among them.
    public var services: [RecordedService]

    /// Creates a recorded database.
    public init(services: [RecordedService]) { self.services = services }

    /// The Database Hash (0x2B2A, Core Spec Vol 3, Part G, 7.3) as read, if the device serves it.
    public var hash: [UInt8]? {
        characteristic(.databaseHash)?.value?.bytes
    }

    /// The first characteristic with `uuid`, in any service.
    public func characteristic(_ uuid: BluetoothUUID) -> RecordedCharacteristic? {
        services.lazy.flatMap(\.characteristics).first { $0.uuid == uuid }
    }

    /// The service and characteristic whose value is at `handle`.
    public func characteristic(valueHandle handle: ATTHandle) -> (RecordedService, RecordedCharacteristic)? {
        for service in services {
            if let match = service.characteristics.first(where: { $0.valueHandle == handle }) {
                return (service, match)
            }
        }
        return nil
    }
}
