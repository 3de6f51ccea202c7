import AirlinkCore
import Foundation

extension CachedGATTDatabase: Codable {
    private enum CodingKeys: String, CodingKey { case services, complete }

    /// Decodes the form shown on ``CachedGATTDatabase``; `complete` is `false` when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            services: try container.decode([Service].self, forKey: .services),
            complete: try container.decodeIfPresent(Bool.self, forKey: .complete) ?? false)
    }

    /// Encodes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(services, forKey: .services)
        try container.encode(complete, forKey: .complete)
    }
}

extension CachedGATTDatabase.Service: Codable {
    private enum CodingKeys: String, CodingKey { case uuid, start, end, complete, characteristics }
    private enum CharacteristicKeys: String, CodingKey { case uuid, declaration, value, properties, descriptors }
    private enum DescriptorKeys: String, CodingKey { case uuid, handle }

    /// Decodes `{"uuid", "start", "end", "complete", "characteristics": [{"uuid", "declaration", "value",
    /// "properties", "descriptors"}]}`: handles and properties as numbers; `descriptors`, when the characteristic's
    /// were discovered, a list of `{"uuid", "handle"}`; a handle of 0 or a start after the end is refused naming
    /// the field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try Self.handle(.start, in: container)
        let end = try Self.handle(.end, in: container)
        guard start <= end else {
            throw DecodingError.dataCorruptedError(
                forKey: .end, in: container, debugDescription: "the end \(end) is before the start \(start)")
        }
        service = GATTService(uuid: try container.decode(BluetoothUUID.self, forKey: .uuid), handles: start...end)
        complete = try container.decodeIfPresent(Bool.self, forKey: .complete) ?? false
        var list = try container.nestedUnkeyedContainer(forKey: .characteristics)
        characteristics = []
        descriptors = [:]
        while !list.isAtEnd {
            let item = try list.nestedContainer(keyedBy: CharacteristicKeys.self)
            let characteristic = GATTCharacteristic(
                uuid: try item.decode(BluetoothUUID.self, forKey: .uuid),
                declarationHandle: try Self.handle(.declaration, in: item),
                valueHandle: try Self.handle(.value, in: item),
                properties: CharacteristicProperties(rawValue: try item.decode(UInt8.self, forKey: .properties)))
            characteristics.append(characteristic)
            guard item.contains(.descriptors) else { continue }
            var found: [GATTDescriptor] = []
            var entries = try item.nestedUnkeyedContainer(forKey: .descriptors)
            while !entries.isAtEnd {
                let entry = try entries.nestedContainer(keyedBy: DescriptorKeys.self)
                found.append(
                    GATTDescriptor(
                        uuid: try entry.decode(BluetoothUUID.self, forKey: .uuid),
                        handle: try Self.handle(.handle, in: entry)))
            }
            descriptors[characteristic.valueHandle] = found
        }
    }

    /// Encodes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(service.uuid, forKey: .uuid)
        try container.encode(service.handles.lowerBound.rawValue, forKey: .start)
        try container.encode(service.handles.upperBound.rawValue, forKey: .end)
        try container.encode(complete, forKey: .complete)
        var list = container.nestedUnkeyedContainer(forKey: .characteristics)
        for characteristic in characteristics {
            var item = list.nestedContainer(keyedBy: CharacteristicKeys.self)
            try item.encode(characteristic.uuid, forKey: .uuid)
            try item.encode(characteristic.declarationHandle.rawValue, forKey: .declaration)
            try item.encode(characteristic.valueHandle.rawValue, forKey: .value)
            try item.encode(characteristic.properties.rawValue, forKey: .properties)
            guard let found = descriptors[characteristic.valueHandle] else { continue }
            var entries = item.nestedUnkeyedContainer(forKey: .descriptors)
            for descriptor in found {
                var entry = entries.nestedContainer(keyedBy: DescriptorKeys.self)
                try entry.encode(descriptor.uuid, forKey: .uuid)
                try entry.encode(descriptor.handle.rawValue, forKey: .handle)
            }
        }
    }

    /// A handle from 1 to 0xFFFF, or a decoding error naming the key.
    private static func handle<Key: CodingKey>(_ key: Key, in container: KeyedDecodingContainer<Key>) throws
        -> ATTHandle
    {
        let raw = try container.decode(UInt16.self, forKey: key)
        guard raw != 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "handle 0 is reserved; handles run from 1 to 65535")
        }
        return ATTHandle(raw)
    }
}

extension CachedGATTDatabase {
    /// The database as compact JSON with sorted keys (what the SQLite registry keeps in its `database` column).
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding numbers, strings and booleans cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Reads the JSON ``jsonText`` writes.
    ///
    /// - Parameter jsonText: the JSON text.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the field that does not decode
    ///   (`database.services[0].end: ...`) or the handles that do not make a database.
    public init(jsonText: String) throws(AirlinkError) {
        do {
            self = try JSONDecoder().decode(CachedGATTDatabase.self, from: Data(jsonText.utf8))
        } catch {
            throw AirlinkError(.invalidArgument, "database.\(RegistryDocument.describe(error))")
        }
        try validate()
    }
}
