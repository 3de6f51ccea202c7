import AirlinkCore

/// Checks a ``/AirlinkCore/GATTServerDefinition`` and assigns its handles (Core Spec Vol 3, Part G, 3.1–3.3).
struct AttributeTableBuilder {
    private let definition: GATTServerDefinition
    private var table: [GATTAttribute] = []
    /// The handle the next attribute takes.
    private var next: UInt16 = 1
    /// The Service Changed value handle, if the Generic Attribute service serves it (always 0x0008).
    let serviceChangedHandle: ATTHandle?
    /// The Client Supported Features value handle, if served.
    let clientSupportedFeaturesHandle: ATTHandle?
    /// The Database Hash value handle, if served.
    let databaseHashHandle: ATTHandle?
    /// The Generic Attribute service's end group handle.
    private let genericAttributeEnd: ATTHandle
    /// Each defined service's declaration handle and end group handle.
    private var serviceRanges: [ClosedRange<ATTHandle>] = []

    /// The characteristics the Generic Attribute service serves; a definition may not define them itself.
    static let genericAttributeTypes: [BluetoothUUID] = [.serviceChanged, .clientSupportedFeatures, .databaseHash]

    /// Checks the definition and computes every service's handle range.
    init(_ definition: GATTServerDefinition) throws(AirlinkError) {
        self.definition = definition
        // 1–5 Generic Access, 6 the Generic Attribute service's declaration, then its characteristics.
        var next = 7
        func take(_ characteristic: GenericAttributeCharacteristics, _ count: Int) -> ATTHandle? {
            guard definition.genericAttribute.contains(characteristic) else { return nil }
            defer { next += count }
            return ATTHandle(UInt16(next + 1))
        }
        serviceChangedHandle = take(.serviceChanged, 3)
        clientSupportedFeaturesHandle = take(.clientSupportedFeatures, 2)
        databaseHashHandle = take(.databaseHash, 2)
        genericAttributeEnd = ATTHandle(UInt16(next - 1))
        for service in definition.services {
            try Self.check(service, in: definition)
            next = try Self.place(service.handle, at: next, "service \(service.uuid)")
            let start = next
            next += 1 + service.includes.count
            for characteristic in service.characteristics {
                next = try Self.place(
                    characteristic.handle, at: next, "characteristic \(characteristic.uuid) of service \(service.uuid)")
                next += 2 + (characteristic.properties.canSubscribe ? 1 : 0) + characteristic.descriptors.count
            }
            guard next - 1 <= 0xFFFF else {
                throw AirlinkError(
                    .invalidSpecification,
                    "the database needs more than 0xFFFF attribute handles; service \(service.uuid) would end at "
                        + "handle \(next - 1)")
            }
            serviceRanges.append(ATTHandle(UInt16(start))...ATTHandle(UInt16(next - 1)))
        }
    }

    /// The handle a declaration takes: its own (a recorded layout's), which may leave a gap but not go back,
    /// or the next free one.
    private static func place(
        _ handle: ATTHandle?, at next: Int, _ what: @autoclosure () -> String
    ) throws(AirlinkError) -> Int {
        guard let handle else { return next }
        guard Int(handle.rawValue) >= next else {
            throw AirlinkError(
                .invalidSpecification,
                "\(what()) asks for handle \(handle), which the attributes before it take (the next free handle is "
                    + "\(ATTHandle(UInt16(clamping: next)))); give a later handle or none")
        }
        return Int(handle.rawValue)
    }

    private static func check(
        _ service: GATTServerDefinition.Service, in definition: GATTServerDefinition
    ) throws(AirlinkError) {
        func fault(_ text: String) -> AirlinkError {
            AirlinkError(.invalidSpecification, "service \(service.uuid): \(text)")
        }
        if service.uuid == .genericAccess || service.uuid == .genericAttribute {
            throw fault("the database adds this service itself; remove it from the definition")
        }
        for include in service.includes {
            let matches = definition.services.filter { $0.uuid == include }.count
            if include == service.uuid { throw fault("it includes itself") }
            if matches == 0 { throw fault("includes \(include), which the definition does not define") }
            if matches > 1 { throw fault("includes \(include), which the definition defines \(matches) times") }
        }
        for characteristic in service.characteristics where genericAttributeTypes.contains(characteristic.uuid) {
            throw fault(
                "characteristic \(characteristic.uuid) belongs to the Generic Attribute service, which the database "
                    + "adds; choose whether it is served with the peripheral's `genericAttribute` instead")
        }
        let declarationTypes: [BluetoothUUID] = [
            .primaryServiceDeclaration, .secondaryServiceDeclaration, .includeDeclaration, .characteristicDeclaration,
        ]
        for characteristic in service.characteristics {
            // Described only when the characteristic is refused: building its text for every characteristic
            // of every peripheral added was a tenth of adding one (Docs/Performance.md).
            func name() -> String { "characteristic \(characteristic.uuid)" }
            if characteristic.value.count > AttributeDatabase.maximumValueLength {
                throw fault(
                    "\(name()) has a \(characteristic.value.count)-byte value, over the "
                        + "\(AttributeDatabase.maximumValueLength) bytes an attribute holds")
            }
            if declarationTypes.contains(characteristic.uuid) {
                throw fault("\(name()) uses a declaration type as its UUID")
            }
            let types = characteristic.descriptors.map(\.uuid)
            if types.contains(.clientCharacteristicConfiguration) {
                if characteristic.properties.canSubscribe {
                    throw fault(
                        "\(name()) lists a CCCD (2902), a duplicate of the one the database adds for "
                            + "\(characteristic.properties); remove it")
                }
                throw fault(
                    "\(name()) lists a CCCD (2902) but its properties \(characteristic.properties) allow neither "
                        + "notify nor indicate; add .notify or .indicate, or remove the descriptor")
            }
            if characteristic.properties.contains(.extendedProperties)
                && !types.contains(.characteristicExtendedProperties)
            {
                throw fault("\(name()) has .extendedProperties but no Extended Properties descriptor (2900)")
            }
            for descriptor in characteristic.descriptors {
                if declarationTypes.contains(descriptor.uuid) {
                    throw fault("\(name()) lists a descriptor of declaration type \(descriptor.uuid)")
                }
                if descriptor.value.count > AttributeDatabase.maximumValueLength {
                    throw fault(
                        "\(name()) descriptor \(descriptor.uuid) has a \(descriptor.value.count)-byte value, over the "
                            + "\(AttributeDatabase.maximumValueLength) bytes an attribute holds")
                }
            }
            if Set(types).count != types.count {
                throw fault("\(name()) lists the same descriptor type twice")
            }
        }
    }

    /// Builds the table.
    mutating func build() -> [GATTAttribute] {
        table = []
        next = 1
        addService(.genericAccess, isPrimary: true, end: ATTHandle(0x0005))
        addCharacteristic(
            .deviceName, properties: .read, permissions: .readable, value: Array(definition.deviceName.utf8))
        addCharacteristic(
            .appearance, properties: .read, permissions: .readable,
            value: [
                UInt8(truncatingIfNeeded: definition.appearance), UInt8(truncatingIfNeeded: definition.appearance >> 8),
            ])
        addService(.genericAttribute, isPrimary: true, end: genericAttributeEnd)
        if serviceChangedHandle != nil {
            addCharacteristic(.serviceChanged, properties: .indicate, permissions: [], value: [0, 0, 0, 0])
        }
        if clientSupportedFeaturesHandle != nil {
            // The value each client reads is its own (ATTServer keeps it); the stored byte is the default.
            addCharacteristic(
                .clientSupportedFeatures, properties: [.read, .write], permissions: .readWrite, value: [0])
        }
        if databaseHashHandle != nil {
            // Its value is set once the table is complete (characteristic values do not enter the hash).
            addCharacteristic(.databaseHash, properties: .read, permissions: .readable, value: [])
        }
        for (service, range) in zip(definition.services, serviceRanges) {
            next = range.lowerBound.rawValue
            addService(service.uuid, isPrimary: service.isPrimary, end: range.upperBound)
            for include in service.includes {
                let index = definition.services.firstIndex { $0.uuid == include }!
                let target = serviceRanges[index]
                var value: [UInt8] = []
                value.append(target.lowerBound)
                value.append(target.upperBound)
                if let short = include.uint16 { value.append(uint16: short) }
                append(.includeDeclaration, value, .readable, .include)
            }
            for characteristic in service.characteristics {
                if let handle = characteristic.handle { next = handle.rawValue }
                addCharacteristic(
                    characteristic.uuid, properties: characteristic.properties, permissions: characteristic.permissions,
                    value: characteristic.value)
                let valueHandle = table[table.count - 1].handle
                for descriptor in characteristic.descriptors {
                    append(
                        descriptor.uuid, descriptor.value, descriptor.permissions, .descriptor(valueHandle: valueHandle)
                    )
                }
            }
        }
        if let databaseHashHandle {
            let hash = GATTDatabaseHash(
                attributes: table.lazy.map {
                    GATTDatabaseHash.Attribute(handle: $0.handle, type: $0.type, value: $0.value)
                })
            if let index = table.firstIndex(where: { $0.handle == databaseHashHandle }) {
                table[index].value = hash.characteristicValue
            }
        }
        return table
    }

    private var nextHandle: ATTHandle { ATTHandle(next) }

    private mutating func append(
        _ type: BluetoothUUID, _ value: [UInt8], _ permissions: AttributePermissions, _ role: GATTAttribute.Role
    ) {
        table.append(GATTAttribute(handle: nextHandle, type: type, value: value, permissions: permissions, role: role))
        next &+= 1
    }

    private mutating func addService(_ uuid: BluetoothUUID, isPrimary: Bool, end: ATTHandle) {
        let type: BluetoothUUID = isPrimary ? .primaryServiceDeclaration : .secondaryServiceDeclaration
        append(type, uuid.attBytes, .readable, .service(endGroupHandle: end))
    }

    private mutating func addCharacteristic(
        _ uuid: BluetoothUUID, properties: CharacteristicProperties, permissions: AttributePermissions, value: [UInt8]
    ) {
        let valueHandle = ATTHandle(nextHandle.rawValue + 1)
        var declaration: [UInt8] = [properties.rawValue]
        declaration.append(valueHandle)
        declaration += uuid.attBytes
        append(.characteristicDeclaration, declaration, .readable, .characteristicDeclaration)
        let cccdHandle = properties.canSubscribe ? ATTHandle(valueHandle.rawValue + 1) : nil
        append(uuid, value, permissions, .characteristicValue(properties: properties, cccdHandle: cccdHandle))
        if properties.canSubscribe {
            append(
                .clientCharacteristicConfiguration, [0, 0], .readWrite,
                .cccd(valueHandle: valueHandle, properties: properties))
        }
    }
}
