/// A GATT server's database as bytes: services, characteristics and descriptors, before handles are
/// assigned (Core Spec Vol 3, Part G, 3).
///
/// `AttributeDatabase` (AirlinkSimulation) lays it out into attributes and checks it. The Generic Access (0x1800) and
/// Generic Attribute (0x1801) services are added by the database; do not define them here. A typed DSL
/// is meant to be layered on top of this definition.
public struct GATTServerDefinition: Hashable, Sendable {
    /// The Device Name characteristic's value (Vol 3, Part C, 12.1), UTF-8.
    public var deviceName: String
    /// The Appearance characteristic's value (Vol 3, Part C, 12.2), 0x0000 for unknown.
    public var appearance: UInt16
    /// The services, in handle order.
    public var services: [Service]
    /// The characteristics the Generic Attribute service serves (all three by default).
    public var genericAttribute: GenericAttributeCharacteristics

    /// Creates a definition.
    ///
    /// - Parameters:
    ///   - deviceName: the Device Name.
    ///   - appearance: the Appearance category and subcategory.
    ///   - services: the services, in the order they take handles.
    ///   - genericAttribute: the characteristics of the Generic Attribute service (Vol 3, Part G, 7).
    public init(
        deviceName: String, appearance: UInt16 = 0x0000, services: [Service],
        genericAttribute: GenericAttributeCharacteristics = .all
    ) {
        self.deviceName = deviceName
        self.appearance = appearance
        self.services = services
        self.genericAttribute = genericAttribute
    }

    /// A service definition (Vol 3, Part G, 3.1 and 3.2).
    public struct Service: Hashable, Sendable {
        /// The service's UUID.
        public var uuid: BluetoothUUID
        /// Whether the service is primary (0x2800) or secondary (0x2801).
        public var isPrimary: Bool
        /// UUIDs of other services of this definition to include (Vol 3, Part G, 3.2); each must name one.
        public var includes: [BluetoothUUID]
        /// The characteristics, in handle order.
        public var characteristics: [Characteristic]
        /// The handle of its declaration, or `nil` (the default) for the one after the previous service's last
        /// attribute. A recorded device's layout sets it, gaps included; it may not go back.
        public var handle: ATTHandle?

        /// Creates a service definition.
        ///
        /// - Parameters:
        ///   - uuid: the service's UUID.
        ///   - isPrimary: `false` for a secondary service.
        ///   - includes: UUIDs of services of the same definition to include.
        ///   - characteristics: the characteristics.
        public init(
            _ uuid: BluetoothUUID, isPrimary: Bool = true, includes: [BluetoothUUID] = [],
            characteristics: [Characteristic]
        ) {
            self.uuid = uuid
            self.isPrimary = isPrimary
            self.includes = includes
            self.characteristics = characteristics
        }
    }

    /// A characteristic definition (Vol 3, Part G, 3.3).
    ///
    /// A characteristic that notifies or indicates gets its CCCD (0x2902) from the database; do not
    /// list one among ``descriptors``.
    public struct Characteristic: Hashable, Sendable {
        /// The characteristic's UUID.
        public var uuid: BluetoothUUID
        /// The properties the declaration advertises.
        public var properties: CharacteristicProperties
        /// What the server lets a client do with the value.
        public var permissions: AttributePermissions
        /// The value before any write, at most 512 bytes (Vol 3, Part F, 3.2.9).
        public var value: [UInt8]
        /// Further descriptors, in handle order after the CCCD.
        public var descriptors: [Descriptor]
        /// The handle of its declaration, or `nil` (the default) for the one after the previous attribute. A
        /// recorded device's layout sets it, gaps included; it may not go back.
        public var handle: ATTHandle?

        /// Creates a characteristic definition.
        ///
        /// - Parameters:
        ///   - uuid: the characteristic's UUID.
        ///   - properties: the declaration's properties.
        ///   - permissions: the value's permissions; by default readable if `.read` and writable if
        ///     `.write` or `.writeWithoutResponse` is among the properties.
        ///   - value: the initial value.
        ///   - descriptors: further descriptors.
        public init(
            _ uuid: BluetoothUUID, properties: CharacteristicProperties, permissions: AttributePermissions? = nil,
            value: [UInt8] = [], descriptors: [Descriptor] = []
        ) {
            self.uuid = uuid
            self.properties = properties
            self.permissions = permissions ?? Self.defaultPermissions(for: properties)
            self.value = value
            self.descriptors = descriptors
        }

        /// Readable if the properties allow reads; writable if they allow either kind of write.
        public static func defaultPermissions(for properties: CharacteristicProperties) -> AttributePermissions {
            var permissions: AttributePermissions = []
            if properties.contains(.read) { permissions.insert(.readable) }
            if !properties.isDisjoint(with: [.write, .writeWithoutResponse]) { permissions.insert(.writable) }
            return permissions
        }
    }

    /// A descriptor definition (Vol 3, Part G, 3.3.3).
    public struct Descriptor: Hashable, Sendable {
        /// The descriptor's type.
        public var uuid: BluetoothUUID
        /// What the server lets a client do with the value.
        public var permissions: AttributePermissions
        /// The value, at most 512 bytes.
        public var value: [UInt8]

        /// Creates a descriptor definition.
        ///
        /// - Parameters:
        ///   - uuid: the descriptor's type.
        ///   - permissions: its permissions, readable by default.
        ///   - value: its value.
        public init(_ uuid: BluetoothUUID, permissions: AttributePermissions = .readable, value: [UInt8] = []) {
            self.uuid = uuid
            self.permissions = permissions
            self.value = value
        }

        /// A Characteristic User Description (0x2901), read-only, UTF-8 (Vol 3, Part G, 3.3.3.2).
        public static func userDescription(_ text: String) -> Descriptor {
            Descriptor(.characteristicUserDescription, value: Array(text.utf8))
        }
    }
}
