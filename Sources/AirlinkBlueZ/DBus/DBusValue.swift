/// A D-Bus value of any type (D-Bus Specification, "Type System"), as Airlink encodes and decodes
/// it through libdbus's `DBusMessageIter`.
///
/// Containers keep their element signatures, so that an empty array or dictionary still has a type.
/// Byte arrays (`ay`), the most common payload of BlueZ's GATT API, have their own case.
package indirect enum DBusValue: Sendable, Hashable, CustomStringConvertible {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `ay`.
    case bytes([UInt8])
    /// An array of values whose single complete type is `elementSignature`.
    case array(elementSignature: String, [DBusValue])
    /// `a{KV}`: entries in the order received.
    case dictionary(keySignature: String, valueSignature: String, [DBusDictionaryEntry])
    /// `(...)`.
    case structure([DBusValue])
    /// `v`.
    case variant(DBusValue)

    /// The value's D-Bus signature: `y`, `a{sv}`, `(ii)` ...
    package var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// A short rendering for logs and messages: `"hci0"`, `[0x01 0x02]`, `{Powered: true}`.
    package var description: String {
        switch self {
        case .byte(let value): "0x" + String(value, radix: 16)
        case .boolean(let value): String(value)
        case .int16(let value): String(value)
        case .uint16(let value): String(value)
        case .int32(let value): String(value)
        case .uint32(let value): String(value)
        case .int64(let value): String(value)
        case .uint64(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): "\"\(value)\""
        case .objectPath(let value): value
        case .signature(let value): "g\"\(value)\""
        case .bytes(let bytes): "[" + bytes.map { String($0, radix: 16) }.joined(separator: " ") + "]"
        case .array(_, let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(_, _, let entries):
            "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        case .variant(let value): "<\(value)>"
        }
    }
}

/// One entry of a D-Bus dictionary.
package struct DBusDictionaryEntry: Sendable, Hashable {
    package var key: DBusValue
    package var value: DBusValue

    package init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension DBusValue {
    /// An `a{sv}` dictionary from string keys and values wrapped in variants, in the order given.
    package static func properties(_ entries: KeyValuePairs<String, DBusValue>) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            entries.map { DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value)) })
    }

    /// An `a{sv}` dictionary from an array of pairs, in the order given.
    package static func properties(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            entries.map { DBusDictionaryEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    /// An `as` array.
    package static func strings(_ values: [String]) -> DBusValue {
        .array(elementSignature: "s", values.map { .string($0) })
    }
}
