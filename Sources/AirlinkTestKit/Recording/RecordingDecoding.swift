import AirlinkCore
import AirlinkSimulation

/// What the recording's decoders share: strict keys, hex bytes, handles, UUIDs and ATT errors as a
/// recording writes them, each refusal a `DecodingError` that the loader turns into a line of the file.
enum RecordingDecoding {
    /// Refuses any key of the mapping at `decoder` outside `allowed`, naming it and what is allowed, so that a
    /// misspelt key is reported rather than ignored.
    static func rejectUnknownKeys(_ decoder: any Decoder, allowed: [String], in what: String) throws {
        let all = try decoder.container(keyedBy: ScenarioPathKey.self)
        guard let stray = all.allKeys.map(\.stringValue).sorted().first(where: { !allowed.contains($0) }) else {
            return
        }
        throw DecodingError.dataCorruptedError(
            forKey: ScenarioPathKey(stringValue: stray), in: all,
            debugDescription: "\(what) has no key `\(stray)`; it takes \(allowed.joined(separator: ", "))")
    }

    /// Bytes written in hex (`"0a0b"`), at most 512 unless `limit` says otherwise.
    static func bytes<Key: CodingKey>(
        _ key: Key, in container: KeyedDecodingContainer<Key>, limit: Int? = AttributeDatabase.maximumValueLength
    ) throws -> [UInt8] {
        let text = try container.decode(String.self, forKey: key)
        let bytes: [UInt8]
        do {
            bytes = try GATTValueFormat.hex.bytes(of: text)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "expected bytes in hex such as \"0a0b\": \(error.message)"
            )
        }
        if let limit, bytes.count > limit {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "a value holds at most \(limit) bytes (Core Spec Vol 3, Part F, 3.2.9), found "
                    + "\(bytes.count); shorten it")
        }
        return bytes
    }

    /// A handle: `0x0012` or a decimal number from 1 to 65535.
    static func handle(_ text: String) -> ATTHandle? {
        let trimmed = text.trimmingWhitespace
        let value =
            trimmed.lowercased().hasPrefix("0x") ? UInt16(trimmed.dropFirst(2), radix: 16) : UInt16(trimmed)
        guard let value, value != 0 else { return nil }
        return ATTHandle(value)
    }

    /// A handle under `key`.
    static func handle<Key: CodingKey>(_ key: Key, in container: KeyedDecodingContainer<Key>) throws -> ATTHandle {
        let text = try container.decode(String.self, forKey: key)
        guard let handle = handle(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "expected a handle from 0x0001 to 0xFFFF, found '\(text)'"
            )
        }
        return handle
    }

    /// Handles in a list under `key`.
    static func handles<Key: CodingKey>(_ key: Key, in container: KeyedDecodingContainer<Key>) throws -> [ATTHandle] {
        var list = try container.nestedUnkeyedContainer(forKey: key)
        var handles: [ATTHandle] = []
        while !list.isAtEnd {
            let index = list.currentIndex
            let text = try list.decode(String.self)
            guard let handle = handle(text) else {
                throw DecodingError.corruptedEntry(
                    index, of: list, "expected a handle from 0x0001 to 0xFFFF, found '\(text)'")
            }
            handles.append(handle)
        }
        return handles
    }

    /// A UUID under `key`: `"180F"` or a 128-bit UUID.
    static func uuid<Key: CodingKey>(_ key: Key, in container: KeyedDecodingContainer<Key>) throws -> BluetoothUUID {
        let text = try container.decode(String.self, forKey: key)
        guard let uuid = BluetoothUUID(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "expected a UUID such as \"180F\" or \"F000AA01-0451-4000-B000-000000000000\", "
                    + "found '\(text)'")
        }
        return uuid
    }

    /// The value (`value:` in hex) or the read's ATT error (`readError:`), or `nil` when neither is given.
    static func value<Key: CodingKey>(
        _ valueKey: Key, _ errorKey: Key, in container: KeyedDecodingContainer<Key>
    ) throws -> RecordedValue? {
        if container.contains(valueKey) && container.contains(errorKey) {
            throw DecodingError.dataCorruptedError(
                forKey: errorKey, in: container,
                debugDescription: "a read gives a value or an error, not both; remove `value` or `readError`")
        }
        if container.contains(valueKey) { return .bytes(try bytes(valueKey, in: container)) }
        if let error = try container.decodeIfPresent(ScenarioATTError.self, forKey: errorKey) {
            return .error(error.error)
        }
        return nil
    }
}
