import AirlinkCore

/// One row of a server's attribute table: handle, type, value and permissions (Core Spec Vol 3, Part F, 3.2).
///
/// ``role`` records what GATT made of the attribute, so that the server can answer grouping,
/// CCCD and characteristic questions without parsing declarations again.
public struct GATTAttribute: Hashable, Sendable, CustomStringConvertible {
    /// The attribute's handle.
    public var handle: ATTHandle
    /// The attribute's type.
    public var type: BluetoothUUID
    /// The attribute's value as stored.
    public var value: [UInt8]
    /// What the server lets a client do with it.
    public var permissions: AttributePermissions
    /// What GATT made of it.
    public var role: Role

    /// What an attribute is in the GATT layout (Vol 3, Part G, 3.1–3.3).
    public enum Role: Hashable, Sendable {
        /// A service declaration whose group ends at `endGroupHandle`.
        case service(endGroupHandle: ATTHandle)
        /// An include declaration.
        case include
        /// A characteristic declaration.
        case characteristicDeclaration
        /// A characteristic value with its properties and, if it notifies or indicates, its CCCD's handle.
        case characteristicValue(properties: CharacteristicProperties, cccdHandle: ATTHandle?)
        /// The Client Characteristic Configuration of the value at `valueHandle`.
        case cccd(valueHandle: ATTHandle, properties: CharacteristicProperties)
        /// Any other descriptor of the value at `valueHandle`.
        case descriptor(valueHandle: ATTHandle)
    }

    /// Creates an attribute.
    public init(
        handle: ATTHandle, type: BluetoothUUID, value: [UInt8], permissions: AttributePermissions, role: Role
    ) {
        self.handle = handle
        self.type = type
        self.value = value
        self.permissions = permissions
        self.role = role
    }

    /// The End Group Handle of a service declaration (Vol 3, Part G, 3.1), `nil` for other attributes.
    public var endGroupHandle: ATTHandle? {
        if case .service(let end) = role { return end }
        return nil
    }

    /// `0x0003 2A00 readable 6 bytes`.
    public var description: String { "\(handle) \(type) \(permissions) \(value.count) bytes" }
}
