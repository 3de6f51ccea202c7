import AirlinkCore
import AirlinkProfiles

/// Builds the peripherals of a scenario's world: built-ins from AirlinkProfiles with overrides, and
/// custom peripherals from their description.
enum ScenarioBuiltIns {
    /// The built-in peripherals a scenario may name.
    static let names = ["thermostat", "battery", "sensortag"]

    /// The spec of one peripheral of the world.
    static func spec(for peripheral: ScenarioPeripheral, at index: Int) throws(AirlinkError) -> PeripheralSpec {
        var spec: PeripheralSpec
        if let recording = peripheral.recording {
            spec = try recording.peripheralSpec(replay: peripheral.replay)
            if let name = peripheral.name { spec.name = name }
            if let id = peripheral.id { spec.id = id }
        } else if let builtIn = peripheral.builtIn {
            spec = try builtInSpec(builtIn, parameters: peripheral.parameters ?? [:], index: index)
            if let name = peripheral.name { spec.name = name }
            if let id = peripheral.id { spec.id = id }
            if let interval = peripheral.advertising?.interval?.duration { spec.advertising?.interval = interval }
        } else {
            spec = try customSpec(peripheral, index: index)
        }
        if let position = peripheral.position { spec.position = position.position }
        if let maximum = peripheral.maximumConnections { spec.maximumConnections = maximum }
        if let mtu = peripheral.mtu { spec.preferredMTU = mtu }
        if let dataLength = peripheral.dataLength { spec.maximumDataLength = dataLength }
        if let characteristics = peripheral.genericAttribute { spec.genericAttribute = characteristics }
        if let bonds = peripheral.bondsWithCentrals { spec.bondsWithCentrals = bonds }
        if let security = peripheral.security { spec.security = security.peripheralSecurity }
        for override in peripheral.values ?? [] {
            try apply(override, to: &spec, index: index)
        }
        return spec
    }

    private static func builtInSpec(_ name: String, parameters: [String: String], index: Int) throws(AirlinkError)
        -> PeripheralSpec
    {
        func number(_ key: String, in range: ClosedRange<Double>) throws(AirlinkError) -> Double? {
            guard let text = parameters[key] else { return nil }
            guard let value = Double(text), range.contains(value) else {
                throw AirlinkError(
                    .invalidSpecification,
                    "world[\(index)].parameters.\(key): expected a number from \(range.lowerBound.formatted) to "
                        + "\(range.upperBound.formatted), found '\(text)'")
            }
            return value
        }
        let known: [String]
        let spec: PeripheralSpec
        switch name {
        case "thermostat":
            known = ["temperature", "setPoint", "battery", "rate"]
            spec = .thermostat(
                temperature: try number("temperature", in: -100...200) ?? 21,
                setPoint: try number("setPoint", in: -100...200),
                battery: UInt8(try number("battery", in: 0...100) ?? 90), rate: try number("rate", in: 0...100) ?? 0.1)
        case "sensortag":
            known = ["seed"]
            spec = .sensorTag(
                physics: SensorTagPhysics(seed: UInt64(try number("seed", in: 0...Double(1 << 53)) ?? 2541)))
        default:
            known = ["level", "drainEvery"]
            let drain = try parameters["drainEvery"].map { text throws(AirlinkError) -> Duration in
                guard let duration = ScenarioDuration.parse(text), duration >= ScenarioLimits.minimumPeriod else {
                    throw AirlinkError(
                        .invalidSpecification,
                        "world[\(index)].parameters.drainEvery: expected a period of at least 1ms, found '\(text)'")
                }
                return duration
            }
            spec = .battery(level: UInt8(try number("level", in: 0...100) ?? 87), drainEvery: drain ?? .seconds(60))
        }
        if let unknown = parameters.keys.sorted().first(where: { !known.contains($0) }) {
            throw AirlinkError(
                .invalidSpecification,
                "world[\(index)].parameters.\(unknown): the \(name) takes \(known.joined(separator: ", "))")
        }
        return spec
    }

    private static func customSpec(_ peripheral: ScenarioPeripheral, index: Int) throws(AirlinkError) -> PeripheralSpec
    {
        let name = peripheral.name ?? "Peripheral"
        var services: [Service] = []
        for service in peripheral.services ?? [] {
            services.append(try Self.service(service))
        }
        let advertising = peripheral.advertising
        var spec = PeripheralSpec(name: name, id: peripheral.id ?? "C0:FF:EE:00:00:99") {}
        if let advertising {
            spec.advertising = Advertising(
                every: advertising.interval?.duration ?? .milliseconds(100),
                connectable: advertising.connectable ?? true
            ) {
                LocalName(advertising.localName ?? name)
                if let uuids = advertising.services, !uuids.isEmpty { ServiceUUIDs(uuids.map(\.uuid)) }
            }
            spec.advertising?.scanResponse = advertising.scanResponse?.advertisement(
                connectable: advertising.connectable ?? true)
        }
        spec.services = services
        return spec
    }

    /// A service of a custom peripheral, or of a database change.
    static func service(_ service: ScenarioService) throws(AirlinkError) -> Service {
        var result = Service(service.uuid.uuid)
        for characteristic in service.characteristics {
            result.characteristics.append(try Self.characteristic(characteristic))
        }
        return result
    }

    private static func characteristic(_ description: ScenarioCharacteristic) throws(AirlinkError)
        -> CharacteristicSpec
    {
        switch description.value.type {
        case .uint8: try typed(UInt8.self, description)
        case .uint16: try typed(UInt16.self, description)
        case .uint32: try typed(UInt32.self, description)
        case .int8: try typed(Int8.self, description)
        case .int16: try typed(Int16.self, description)
        case .int32: try typed(Int32.self, description)
        case .bool: try typed(Bool.self, description)
        case .string: try typed(String.self, description)
        case .bytes: try typed([UInt8].self, description)
        case .temperature: try typed(Temperature.self, description)
        case .batteryLevel: try typed(BatteryLevel.self, description)
        }
    }

    private static func typed<Value: GATTValue>(_ type: Value.Type, _ description: ScenarioCharacteristic)
        throws(AirlinkError) -> CharacteristicSpec
    {
        let permissions = GATTServerDefinition.Characteristic.defaultPermissions(for: description.properties)
        var characteristic = Characteristic(
            description.uuid.uuid, properties: description.properties,
            permissions: permissions.union(description.permissions),
            value: try Value(gattBytes: description.value.bytes))
        if let text = description.userDescription { characteristic = characteristic.userDescription(text) }
        for descriptor in description.descriptors {
            characteristic = characteristic.descriptor(
                GATTServerDefinition.Descriptor(
                    descriptor.uuid.uuid, permissions: descriptor.permissions, value: descriptor.value.bytes))
        }
        if description.echo { characteristic = characteristic.echoesWrites() }
        if let error = description.refuseWrites { characteristic = characteristic.refusesWrites(with: error) }
        var spec = characteristic.spec
        if let updates = description.updates {
            let valueType = description.value.type
            let cycle = (updates.cycle ?? []).compactMap { valueType.bytes(of: $0) }
            let step = updates.add
            spec.updates.append(
                CharacteristicSpec.PeriodicUpdate(period: updates.every.duration) { bytes, _ in
                    if let step { return ScenarioBuiltIns.add(step, to: bytes, as: valueType) }
                    guard !cycle.isEmpty else { return nil }
                    let index = cycle.firstIndex(of: bytes).map { ($0 + 1) % cycle.count } ?? 0
                    return cycle[index]
                })
        }
        return spec
    }

    /// Adds `step` to a little-endian integer, wrapping at its width (a battery level wraps within 0–100).
    static func add(_ step: Int, to bytes: [UInt8], as type: ScenarioValueType) -> [UInt8] {
        if type == .batteryLevel {
            let level = Int(bytes.first ?? 0)
            return [UInt8(((level + step % 101) % 101 + 101) % 101)]  // `step % 101` first: no overflow
        }
        var value: UInt64 = 0
        for (index, byte) in bytes.enumerated() { value |= UInt64(byte) << (8 * UInt64(index)) }
        value = value &+ UInt64(bitPattern: Int64(step))
        return (0..<bytes.count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    private static func apply(_ override: ScenarioValueOverride, to spec: inout PeripheralSpec, index: Int)
        throws(AirlinkError)
    {
        for serviceIndex in spec.services.indices {
            if let service = override.service, spec.services[serviceIndex].uuid != service.uuid { continue }
            for characteristicIndex in spec.services[serviceIndex].characteristics.indices
            where spec.services[serviceIndex].characteristics[characteristicIndex].uuid == override.characteristic.uuid
            {
                spec.services[serviceIndex].characteristics[characteristicIndex].initialValue = override.value.bytes
                return
            }
        }
        throw AirlinkError(
            .invalidSpecification,
            "world[\(index)].values: \(spec.name) has no characteristic \(override.characteristic); its services are "
                + spec.services.map(\.uuid.description).joined(separator: ", "))
    }
}

extension Double {
    /// `100` for whole numbers, `0.5` otherwise.
    fileprivate var formatted: String { rounded() == self ? String(Int64(self)) : String(self) }
}
