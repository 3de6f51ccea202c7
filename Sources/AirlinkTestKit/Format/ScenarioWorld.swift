import AirlinkCore

/// The peripherals of a scenario: built-in ones by name with overrides, custom ones described in the
/// file, and apps publishing values with an `Inspector` (``ScenarioInspector``).
public struct ScenarioPeripheral: Sendable, Decodable {
    /// An app publishing values (`inspector: NAME` with `values:`), instead of a simulated peripheral.
    public var inspector: ScenarioInspector?
    /// A built-in peripheral: `thermostat`, `battery`.
    public var builtIn: String?
    /// The name (required for a custom peripheral; a built-in keeps its own unless given).
    public var name: String?
    /// The address (a built-in keeps its own unless given).
    public var id: DeviceID?
    /// Where it stands.
    public var position: ScenarioPosition?
    /// How it advertises (a custom peripheral without it does not advertise).
    public var advertising: ScenarioAdvertising?
    /// Parameters of a built-in peripheral (thermostat: `temperature`, `setPoint`, `battery`, `rate`;
    /// battery: `level`, `drainEvery`).
    public var parameters: [String: String]?
    /// Initial values that replace the spec's.
    public var values: [ScenarioValueOverride]?
    /// The services of a custom peripheral.
    public var services: [ScenarioService]?
    /// How many centrals may connect at once, 1 to 64; `nil` keeps the peripheral's own (1 for a
    /// custom one). It stops advertising at the limit.
    public var maximumConnections: Int?
    /// The ATT receive MTU it answers an MTU exchange with, 23 to 517; `nil` keeps its own (247).
    public var mtu: Int?
    /// The longest LL payload it accepts, 27 to 251 bytes; `nil` keeps its own (251).
    public var dataLength: Int?
    /// The characteristics its Generic Attribute service serves, a list of `serviceChanged`,
    /// `clientSupportedFeatures`, `databaseHash` (`[]` for none); `nil` serves all three.
    public var genericAttribute: GenericAttributeCharacteristics?
    /// Whether it treats every central as bonded (keeps their subscriptions and caching state between
    /// connections); `nil` keeps the spec's (no).
    public var bondsWithCentrals: Bool?
    /// A recorded device to replay (`recorded: devices/NAME.yaml`, relative to the scenario file), as
    /// written; ``recording`` holds it once the scenario is loaded.
    public var recorded: String?
    /// Whether a recorded device's session loops for the whole run (`loop: true`) rather than playing once.
    public var loop: Bool?
    /// The recording `recorded:` names, loaded with the scenario.
    public var recording: DeviceRecording?
    /// How the recording's session plays: once, or looped for the scenario's duration (`loop: true`).
    public var replay = RecordingReplay.once
    /// How it answers pairing (``ScenarioSecurity``); `nil` keeps the spec's (no input and no output, bonding).
    public var security: ScenarioSecurity?

    /// The `userInfo` key of the directory `recorded:` paths are relative to (the scenario file's).
    static let directoryKey = CodingUserInfoKey(rawValue: "airlink.scenario.directory")!

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case inspector, builtIn, name, id, position, advertising, parameters, values, services, maximumConnections
        case mtu, dataLength, genericAttribute, bondsWithCentrals, recorded, loop, security
    }

    /// The keys a `recorded:` entry takes besides itself: the recording is the device, these place it.
    private static let recordedKeys: [CodingKeys] = [
        .recorded, .loop, .name, .id, .position, .maximumConnections, .mtu, .dataLength, .bondsWithCentrals,
    ]

    /// Decodes a peripheral; a custom one needs `name`, `id` and `services`, an inspector its `values`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.inspector) {
            let name = try container.decode(String.self, forKey: .inspector)
            let others: [CodingKeys] = [
                .builtIn, .name, .id, .position, .advertising, .parameters, .services, .maximumConnections, .mtu,
                .dataLength, .genericAttribute, .bondsWithCentrals, .security,
            ]
            for key in others where container.contains(key) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription:
                        "an inspector is an app on its own adapter, with a name and values only; "
                        + "drop `\(key.stringValue)`"
                )
            }
            inspector = ScenarioInspector(
                name: name, values: try container.decode([ScenarioInspectedValue].self, forKey: .values))
            self.name = name
            return
        }
        recorded = try container.decodeIfPresent(String.self, forKey: .recorded)
        loop = try container.decodeIfPresent(Bool.self, forKey: .loop)
        if let recorded {
            for key in CodingKeys.allCases where container.contains(key) && !Self.recordedKeys.contains(key) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription: "a recorded device is the recording's: drop `\(key.stringValue)` (it takes "
                        + Self.recordedKeys.map(\.stringValue).joined(separator: ", ") + "), or edit the recording")
            }
            let directory = decoder.userInfo[Self.directoryKey] as? String ?? "."
            let path = recorded.hasPrefix("/") ? recorded : directory + "/" + recorded
            do {
                recording = try DeviceRecording.load(path: path)
            } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .recorded, in: container,
                    debugDescription: "the recording \(recorded) cannot be replayed: \(error.message)")
            }
        } else if loop != nil {
            throw DecodingError.dataCorruptedError(
                forKey: .loop, in: container, debugDescription: "`loop` replays a recording; add `recorded: PATH`")
        }
        builtIn = try container.decodeIfPresent(String.self, forKey: .builtIn)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        id = try container.decodeIfPresent(DeviceID.self, forKey: .id)
        position = try container.decodeIfPresent(ScenarioPosition.self, forKey: .position)
        advertising = try container.decodeIfPresent(ScenarioAdvertising.self, forKey: .advertising)
        parameters = try container.decodeIfPresent([String: String].self, forKey: .parameters)
        values = try container.decodeIfPresent([ScenarioValueOverride].self, forKey: .values)
        services = try container.decodeIfPresent([ScenarioService].self, forKey: .services)
        maximumConnections = try container.decodeCount(.maximumConnections, in: 1...64, "a number of centrals")
        mtu = try container.decodeCount(.mtu, in: 23...517, "an ATT MTU")
        dataLength = try container.decodeCount(.dataLength, in: 27...251, "a data length in bytes")
        if let names = try container.decodeIfPresent([String].self, forKey: .genericAttribute) {
            var characteristics: GenericAttributeCharacteristics = []
            for name in names {
                guard let match = GenericAttributeCharacteristics.names.first(where: { $0.1 == name }) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .genericAttribute, in: container,
                        debugDescription: "expected a list of "
                            + GenericAttributeCharacteristics.names.map(\.1).joined(separator: ", ")
                            + ", found '\(name)'")
                }
                characteristics.insert(match.0)
            }
            genericAttribute = characteristics
        }
        bondsWithCentrals = try container.decodeIfPresent(Bool.self, forKey: .bondsWithCentrals)
        security = try container.decodeIfPresent(ScenarioSecurity.self, forKey: .security)
        if let builtIn {
            guard ScenarioBuiltIns.names.contains(builtIn) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .builtIn, in: container,
                    debugDescription:
                        "expected a built-in peripheral (\(ScenarioBuiltIns.names.joined(separator: ", "))), "
                        + "found '\(builtIn)'")
            }
            if services != nil {
                throw DecodingError.dataCorruptedError(
                    forKey: .services, in: container,
                    debugDescription: "a built-in peripheral keeps its services; override values with `values:` instead"
                )
            }
        } else if recorded == nil {
            for key in [CodingKeys.name, .id, .services] where !container.contains(key) {
                throw DecodingError.keyNotFound(
                    key,
                    .init(
                        codingPath: container.codingPath,
                        debugDescription: "a custom peripheral needs `name`, `id` and `services` (or use `builtIn:`)"))
            }
        }
    }
}

/// How a custom peripheral advertises, or a built-in's advertising interval.
public struct ScenarioAdvertising: Sendable, Decodable {
    /// The advertising interval (100 ms by default), within ``ScenarioLimits/advertisingIntervals``.
    public var interval: ScenarioDuration?
    /// The advertised local name (the peripheral's name by default).
    public var localName: String?
    /// The service UUIDs in the advertisement (`["FFF0"]`); `nil` or empty advertises none.
    public var services: [ScenarioUUID]?
    /// Whether centrals may connect (true by default).
    public var connectable: Bool?
    /// What it answers active scanners with; `nil` sends no scan response.
    public var scanResponse: ScenarioScanResponse?

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case interval, localName, services, connectable, scanResponse
    }

    /// Decodes the advertising, checking the interval against the specification's range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        interval = try container.decodeIfPresent(ScenarioDuration.self, forKey: .interval)
        if let interval, !ScenarioLimits.advertisingIntervals.contains(interval.duration) {
            throw DecodingError.dataCorruptedError(
                forKey: .interval, in: container,
                debugDescription: "expected an advertising interval from 20ms to 10.24s, found \(interval)")
        }
        localName = try container.decodeIfPresent(String.self, forKey: .localName)
        services = try container.decodeIfPresent([ScenarioUUID].self, forKey: .services)
        connectable = try container.decodeIfPresent(Bool.self, forKey: .connectable)
        scanResponse = try container.decodeIfPresent(ScenarioScanResponse.self, forKey: .scanResponse)
    }
}

/// An initial value that replaces a peripheral's.
public struct ScenarioValueOverride: Sendable, Decodable {
    /// The characteristic whose initial value is replaced, by UUID or profile name.
    public var characteristic: ScenarioUUID
    /// Its service, when the characteristic UUID is ambiguous.
    public var service: ScenarioUUID?
    /// The value it starts with instead of the peripheral's own.
    public var value: ScenarioValue

    private enum CodingKeys: String, CodingKey { case characteristic, service, type, value }

    /// Decodes `characteristic`, `type` and `value`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        characteristic = try container.decode(ScenarioUUID.self, forKey: .characteristic)
        service = try container.decodeIfPresent(ScenarioUUID.self, forKey: .service)
        let type = try container.decode(ScenarioValueType.self, forKey: .type)
        value = try ScenarioValue.decode(type, forKey: .value, in: container)
    }
}

/// A service of a custom peripheral.
public struct ScenarioService: Sendable, Decodable {
    /// The service's UUID.
    public var uuid: ScenarioUUID
    /// Its characteristics, in the order their handles are given.
    public var characteristics: [ScenarioCharacteristic]
}

/// A characteristic of a custom peripheral, with a typed value and behaviours.
public struct ScenarioCharacteristic: Sendable, Decodable {
    /// The characteristic's UUID.
    public var uuid: ScenarioUUID
    /// Its properties: `read`, `write`, `writeWithoutResponse`, `notify`, `indicate`.
    public var properties: CharacteristicProperties
    /// The value the characteristic holds when the simulation adds the peripheral.
    public var value: ScenarioValue
    /// A periodic update (`every`, and `add` for integers or `cycle` through values).
    public var updates: ScenarioUpdate?
    /// Whether written values are notified back (the `echo` behaviour).
    public var echo: Bool
    /// An ATT error every write is answered with (`write-not-permitted`, `0x03`).
    public var refuseWrites: ATTError?
    /// A Characteristic User Description.
    public var userDescription: String?
    /// Security the value needs beyond what `properties` allow (`permissions: [readEncryptionRequired]`,
    /// `minimumKeySize: 16`); empty for none.
    public var permissions: AttributePermissions
    /// Further descriptors, after the CCCD and the user description.
    public var descriptors: [ScenarioDescriptor]

    private enum CodingKeys: String, CodingKey {
        case uuid, properties, type, value, updates, echo, refuseWrites, userDescription, permissions, minimumKeySize
        case descriptors
    }

    /// The property names a scenario uses.
    static let propertyNames: [(String, CharacteristicProperties)] = [
        ("read", .read), ("write", .write), ("writeWithoutResponse", .writeWithoutResponse), ("notify", .notify),
        ("indicate", .indicate), ("broadcast", .broadcast),
    ]

    /// Decodes a characteristic.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uuid = try container.decode(ScenarioUUID.self, forKey: .uuid)
        let properties = try container.decodeProperties(forKey: .properties, names: Self.propertyNames)
        self.properties = properties
        let type = try container.decode(ScenarioValueType.self, forKey: .type)
        value = try ScenarioValue.decode(type, forKey: .value, in: container)
        updates = try container.decodeIfPresent(ScenarioUpdate.self, forKey: .updates)
        if let updates {
            if updates.add != nil, !type.isInteger {
                throw DecodingError.dataCorruptedError(
                    forKey: .updates, in: container,
                    debugDescription: "`add` counts integers; a \(type.rawValue) value can `cycle` instead")
            }
            for text in updates.cycle ?? [] where type.bytes(of: text) == nil {
                throw DecodingError.dataCorruptedError(
                    forKey: .updates, in: container,
                    debugDescription: "expected \(type.example) in `cycle`, found '\(text)'")
            }
        }
        echo = try container.decodeIfPresent(Bool.self, forKey: .echo) ?? false
        refuseWrites = try container.decodeIfPresent(ScenarioATTError.self, forKey: .refuseWrites)?.error
        userDescription = try container.decodeIfPresent(String.self, forKey: .userDescription)
        permissions = try container.decodePermissions(.permissions, keySize: .minimumKeySize)
        descriptors = try container.decodeIfPresent([ScenarioDescriptor].self, forKey: .descriptors) ?? []
    }
}

/// A periodic update of a characteristic's value: `every` with `add` (count up) or `cycle` (values in turn).
public struct ScenarioUpdate: Sendable, Decodable {
    /// How often.
    public var every: ScenarioDuration
    /// The step of a counter, for integer values (wrapping at the type's bounds).
    public var add: Int?
    /// Values taken in turn, written in the characteristic's type.
    public var cycle: [String]?

    private enum CodingKeys: String, CodingKey { case every, add, cycle }

    /// Decodes an update; `every` is at least ``ScenarioLimits/minimumPeriod``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let every = try container.decodePeriod(forKey: .every) else {
            throw DecodingError.keyNotFound(
                CodingKeys.every, .init(codingPath: container.codingPath, debugDescription: "an update needs `every:`"))
        }
        self.every = every
        add = try container.decodeIfPresent(Int.self, forKey: .add)
        cycle = try container.decodeIfPresent([String].self, forKey: .cycle)
    }
}

/// An ATT error as a scenario writes it: `write-not-permitted`, `writeNotPermitted` or `0x03`.
public struct ScenarioATTError: Sendable, Decodable {
    /// The ATT error the text names.
    public var error: ATTError

    static let names: [(String, ATTError)] = [
        ("invalid-handle", .invalidHandle), ("read-not-permitted", .readNotPermitted),
        ("write-not-permitted", .writeNotPermitted), ("invalid-pdu", .invalidPDU),
        ("insufficient-authentication", .insufficientAuthentication),
        ("request-not-supported", .requestNotSupported), ("invalid-offset", .invalidOffset),
        ("insufficient-authorization", .insufficientAuthorization), ("attribute-not-found", .attributeNotFound),
        ("invalid-attribute-value-length", .invalidAttributeValueLength), ("unlikely-error", .unlikelyError),
        ("insufficient-encryption", .insufficientEncryption), ("insufficient-resources", .insufficientResources),
        ("database-out-of-sync", .databaseOutOfSync), ("value-not-allowed", .valueNotAllowed),
    ]

    /// Decodes a name or a number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self).trimmingWhitespace
        let slug = text.kebabCased
        if let match = Self.names.first(where: { $0.0 == slug }) {
            error = match.1
        } else if let code = text.hasPrefix("0x") ? UInt8(text.dropFirst(2), radix: 16) : UInt8(text) {
            error = ATTError(code)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected an ATT error (\(Self.names.map(\.0).joined(separator: ", ")) or a code "
                    + "such as 0x03), found '\(text)'")
        }
    }
}

extension KeyedDecodingContainer {
    /// Decodes a list of property names (`[read, notify]`) from `names`, refusing any other name.
    func decodeProperties(forKey key: Key, names: [(String, CharacteristicProperties)]) throws
        -> CharacteristicProperties
    {
        var properties: CharacteristicProperties = []
        var list = try nestedUnkeyedContainer(forKey: key)
        while !list.isAtEnd {
            let index = list.currentIndex
            let name = try list.decode(String.self)
            guard let property = names.first(where: { $0.0 == name }) else {
                throw DecodingError.corruptedEntry(
                    index, of: list,
                    "expected a property (\(names.map(\.0).joined(separator: ", "))), found '\(name)'"
                )
            }
            properties.insert(property.1)
        }
        return properties
    }
}

extension String {
    /// `writeNotPermitted` → `write-not-permitted`; kebab-case stays.
    var kebabCased: String {
        var result = ""
        for character in self {
            if character.isUppercase {
                if !result.isEmpty { result += "-" }
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
