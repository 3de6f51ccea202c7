import AirlinkCore

extension ConnectionRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, name, services, firstConnected, lastConnected, connectionCount, databaseHash, database, bond
    }

    /// Decodes a record: the id in its written form, UUIDs as strings, times as seconds since 1970,
    /// the database hash as lowercase hex, the cached database as ``CachedGATTDatabase`` shows and the bond as
    /// ``BondRecord`` shows (each absent in records written before it existed). The name is sanitized
    /// (``sanitizedName(_:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(DeviceID.self, forKey: .id)
        name = try container.decodeIfPresent(String.self, forKey: .name).map(Self.sanitizedName)
        services = try container.decodeIfPresent([BluetoothUUID].self, forKey: .services) ?? []
        firstConnected = try container.decode(RecordTimestamp.self, forKey: .firstConnected)
        lastConnected = try container.decode(RecordTimestamp.self, forKey: .lastConnected)
        connectionCount = try Self.decodeCount(from: container)
        if let hex = try container.decodeIfPresent(String.self, forKey: .databaseHash) {
            guard let bytes = Hex.bytes(hex) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .databaseHash, in: container,
                    debugDescription: "databaseHash \"\(hex)\" is not an even number of hex digits")
            }
            databaseHash = bytes
        } else {
            databaseHash = nil
        }
        database = try container.decodeIfPresent(CachedGATTDatabase.self, forKey: .database)
        bond = try container.decodeIfPresent(BondRecord.self, forKey: .bond)
    }

    /// The connection count, read as a number so that `2.5` or `1e20` is reported naming the field
    /// (JSONDecoder reports a number that does not fit an `Int` only as "not valid JSON").
    private static func decodeCount(from container: KeyedDecodingContainer<CodingKeys>) throws -> Int {
        let number = try container.decode(Double.self, forKey: .connectionCount)
        guard number.rounded() == number, (1...Double(maximumConnectionCount)).contains(number) else {
            throw DecodingError.dataCorruptedError(
                forKey: .connectionCount, in: container,
                debugDescription: "\(number) is not a whole number from 1 to \(maximumConnectionCount)")
        }
        return Int(number)
    }

    /// Encodes the record in the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encode(services, forKey: .services)
        try container.encode(firstConnected, forKey: .firstConnected)
        try container.encode(lastConnected, forKey: .lastConnected)
        try container.encode(connectionCount, forKey: .connectionCount)
        try container.encodeIfPresent(databaseHash.map(Hex.string), forKey: .databaseHash)
        try container.encodeIfPresent(database, forKey: .database)
        try container.encodeIfPresent(bond, forKey: .bond)
    }
}

/// Lowercase hex for byte strings such as the database hash.
enum Hex {
    /// `[0x8F, 0x1C]` as `"8f1c"`.
    static func string(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of an even number of hex digits in either case, or `nil`.
    static func bytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
