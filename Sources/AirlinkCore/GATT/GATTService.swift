/// A service as a GATT client discovers it: its UUID, kind and handle range (Core Spec Vol 3, Part G, 3.1).
///
/// The range runs from the service declaration to the service's last attribute (its End Group Handle,
/// Vol 3, Part G, 4.4.1); every characteristic and descriptor of the service lies inside it.
public struct GATTService: Hashable, Sendable, CustomStringConvertible {
    /// The service's UUID (the service declaration's value).
    public var uuid: BluetoothUUID
    /// Whether the service is primary (declaration type 0x2800) rather than secondary (0x2801).
    public var isPrimary: Bool
    /// The handles from the service declaration to the service's last attribute.
    public var handles: ClosedRange<ATTHandle>
    /// The start handles of the services this one includes (Vol 3, Part G, 3.2), in declaration order.
    public var includedServiceHandles: [ATTHandle]

    /// Creates a service value.
    ///
    /// - Parameters:
    ///   - uuid: the service's UUID.
    ///   - isPrimary: `true` for a primary service.
    ///   - handles: the declaration's handle through the End Group Handle.
    ///   - includedServiceHandles: the start handles of included services.
    public init(
        uuid: BluetoothUUID, isPrimary: Bool = true, handles: ClosedRange<ATTHandle>,
        includedServiceHandles: [ATTHandle] = []
    ) {
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.handles = handles
        self.includedServiceHandles = includedServiceHandles
    }

    /// `service 180F 0x0010...0x0014`.
    public var description: String {
        "\(isPrimary ? "service" : "secondary service") \(uuid) \(handles.lowerBound)...\(handles.upperBound)"
    }
}
