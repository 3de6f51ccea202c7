import AirlinkCore

/// A GATT server's attribute table, handles from 0x0001 in order, without gaps unless a definition places a
/// service or characteristic at a later handle (a recorded device's layout) (Core Spec Vol 3, Part G, 3.1–3.3).
///
/// Built from a ``/AirlinkCore/GATTServerDefinition``: first the Generic Access service 0x1800 (Device Name,
/// Appearance), then the Generic Attribute service 0x1801 with the characteristics the definition's
/// ``/AirlinkCore/GATTServerDefinition/genericAttribute`` chooses (Service Changed, indicate, with its CCCD; Client
/// Supported Features; the Database Hash, whose value is the table's own hash), then each defined service: its
/// declaration, include declarations, and per characteristic a declaration, the value, a CCCD when it notifies or
/// indicates, and the defined descriptors.
public struct AttributeDatabase: Hashable, Sendable {
    /// The longest attribute value, 512 bytes (Vol 3, Part F, 3.2.9).
    public static let maximumValueLength = PeripheralSpec.maximumValueLength

    /// The attributes in handle order; without gaps, the attribute with handle `h` is at index `h - 1`.
    public private(set) var attributes: [GATTAttribute]

    /// The handle of the Service Changed characteristic's value (Vol 3, Part G, 7.1), 0x0008 when it is served.
    public let serviceChangedHandle: ATTHandle?
    /// The handle of the Client Supported Features characteristic's value (Vol 3, Part G, 7.2), when it is served.
    public let clientSupportedFeaturesHandle: ATTHandle?
    /// The handle of the Database Hash characteristic's value (Vol 3, Part G, 7.3), when it is served.
    public let databaseHashHandle: ATTHandle?

    /// Lays out and checks a definition.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidSpecification`` naming the fault: a value over 512 bytes, a
    ///   CCCD listed by hand, a Generic Attribute characteristic (0x2A05, 0x2B29, 0x2B2A) in a defined service, a
    ///   CCCD on a characteristic that neither notifies nor indicates, extended properties
    ///   without their descriptor, a declaration type used as a descriptor, a redefined 0x1800 or 0x1801 service, an
    ///   include that names no service or several, or more than 0xFFFF attributes.
    public init(_ definition: GATTServerDefinition) throws(AirlinkError) {
        self.init(checked: try AttributeTableBuilder(definition))
    }

    /// Builds the table of a definition that `layout` checked already (a simulated peripheral checks
    /// its definition when it is added and builds the table at first use).
    init(checked layout: AttributeTableBuilder) {
        var builder = layout
        attributes = builder.build()
        serviceChangedHandle = builder.serviceChangedHandle
        clientSupportedFeaturesHandle = builder.clientSupportedFeaturesHandle
        databaseHashHandle = builder.databaseHashHandle
    }

    /// The handle of the last attribute.
    public var lastHandle: ATTHandle { attributes.last?.handle ?? ATTHandle(0) }

    /// The attribute at `handle`, or `nil` if there is none.
    public subscript(handle: ATTHandle) -> GATTAttribute? {
        index(of: handle).map { attributes[$0] }
    }

    /// The index of the attribute with `handle`: at `handle - 1` without gaps, else found by bisection.
    private func index(of handle: ATTHandle) -> Int? {
        let direct = Int(handle.rawValue) - 1
        if attributes.indices.contains(direct), attributes[direct].handle == handle { return direct }
        let index = firstIndex(atOrAfter: handle)
        return index < attributes.count && attributes[index].handle == handle ? index : nil
    }

    /// The index of the first attribute whose handle is `handle` or later (`attributes.count` if none).
    private func firstIndex(atOrAfter handle: ATTHandle) -> Int {
        var (low, high) = (0, attributes.count)
        while low < high {
            let middle = (low + high) / 2
            if attributes[middle].handle < handle { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The attributes whose handles lie in `range`, in handle order; empty if none do.
    public func attributes(in range: ClosedRange<ATTHandle>) -> ArraySlice<GATTAttribute> {
        let lower = firstIndex(atOrAfter: range.lowerBound)
        let upper =
            range.upperBound == .max
            ? attributes.count : firstIndex(atOrAfter: ATTHandle(range.upperBound.rawValue + 1))
        guard lower < upper else { return [] }
        return attributes[lower..<upper]
    }

    /// Replaces the stored value of an attribute, as a server does after a write.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` if there is no attribute at `handle` or the value
    ///   is over 512 bytes.
    public mutating func setValue(_ value: [UInt8], for handle: ATTHandle) throws(AirlinkError) {
        guard let index = index(of: handle) else {
            throw AirlinkError(.invalidArgument, "no attribute at handle \(handle); the last is \(lastHandle)")
        }
        guard value.count <= Self.maximumValueLength else {
            throw AirlinkError(
                .invalidArgument,
                "value for \(handle) is \(value.count) bytes, over the \(Self.maximumValueLength) an attribute holds")
        }
        attributes[index].value = value
    }

    /// The services, as discovery reports them (Vol 3, Part G, 4.4).
    public var services: [GATTService] {
        attributes.compactMap { attribute in
            // try?: the database lays out every service declaration from a UUID, so its value always is one
            guard let end = attribute.endGroupHandle, let uuid = try? BluetoothUUID(littleEndian: attribute.value)
            else { return nil }
            let includes = self.attributes(in: attribute.handle...end).filter { $0.role == .include }
                .map { ATTHandle(UInt16($0.value[0]) | UInt16($0.value[1]) << 8) }
            return GATTService(
                uuid: uuid, isPrimary: attribute.type == .primaryServiceDeclaration,
                handles: attribute.handle...end, includedServiceHandles: includes)
        }
    }

    /// The value handle of the first characteristic with `uuid`, optionally only within service `service`.
    public func valueHandle(of uuid: BluetoothUUID, in service: BluetoothUUID? = nil) -> ATTHandle? {
        let ranges = services.filter { service == nil || $0.uuid == service }.map(\.handles)
        for range in ranges {
            for attribute in attributes(in: range) where attribute.type == uuid {
                if case .characteristicValue = attribute.role { return attribute.handle }
            }
        }
        return nil
    }

    /// The CCCD handle of the characteristic whose value is at `valueHandle`, if it has one.
    public func cccdHandle(forValue valueHandle: ATTHandle) -> ATTHandle? {
        if case .characteristicValue(_, let cccd) = self[valueHandle]?.role { return cccd }
        return nil
    }
}
