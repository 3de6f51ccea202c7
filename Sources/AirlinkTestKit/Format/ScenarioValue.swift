import AirlinkCore
import AirlinkProfiles

/// The type of a value in a scenario: how its text becomes bytes on air.
public enum ScenarioValueType: String, Sendable, Hashable, Decodable, CaseIterable {
    /// Unsigned integers, little-endian.
    case uint8, uint16, uint32
    /// Signed integers, little-endian.
    case int8, int16, int32
    /// One byte, 0 or 1.
    case bool
    /// UTF-8 text.
    case string
    /// Raw bytes written in hexadecimal (`0a0b`, `0A 0B`).
    case bytes
    /// The thermostat's ``/AirlinkProfiles/Temperature``: degrees, sint16 in hundredths.
    case temperature
    /// ``/AirlinkProfiles/BatteryLevel``: 0–100 %.
    case batteryLevel = "battery-level"

    /// Whether values of this type are integers (they can be counted up by an `add` behaviour).
    var isInteger: Bool {
        switch self {
        case .uint8, .uint16, .uint32, .int8, .int16, .int32, .batteryLevel: true
        default: false
        }
    }

    /// The encoded width of an integer type, in bytes.
    var width: Int {
        switch self {
        case .uint8, .int8, .bool, .batteryLevel: 1
        case .uint16, .int16, .temperature: 2
        case .uint32, .int32: 4
        case .string, .bytes: 0
        }
    }

    /// The AirlinkCore format that parses and prints values of this type; `nil` for the profile types.
    var format: GATTValueFormat? {
        switch self {
        case .uint8: .uint8
        case .uint16: .uint16
        case .uint32: .uint32
        case .int8: .int8
        case .int16: .int16
        case .int32: .int32
        case .bool: .bool
        case .string: .utf8
        case .bytes: .hex
        case .temperature, .batteryLevel: nil
        }
    }

    /// Encodes a value's text (trimmed first).
    ///
    /// - Returns: the bytes, or `nil` when the text is not a value of this type.
    func bytes(of text: String) -> [UInt8]? {
        let text = text.trimmingWhitespace
        switch self {
        case .temperature:
            // try?: `nil` is this function's answer for text that is no value of the type (see Returns)
            guard let degrees = Double(text), let value = try? Temperature(checkingDegrees: degrees) else { return nil }
            return value.gattBytes
        case .batteryLevel:
            // try?: as above, `nil` for a percentage out of range
            guard let percent = Int(text), let value = try? BatteryLevel(checking: percent) else { return nil }
            return value.gattBytes
        default:
            return format.flatMap { try? $0.bytes(of: text) }  // try?: as above, `nil` for text of another format
        }
    }

    /// A value's bytes as text of this type (`21.5`, `87`, `0a0b`), for traces and summaries; hex when
    /// the bytes do not fit the type.
    func text(of bytes: [UInt8]) -> String {
        switch self {
        case .string: return String(decoding: bytes, as: UTF8.self)
        case .bytes: return Self.hex(bytes)
        case .temperature: return Self.shown(bytes) { try "\(Temperature(gattBytes: $0).degrees)" }
        case .batteryLevel: return Self.shown(bytes) { try "\(BatteryLevel(gattBytes: $0).percent)" }
        default: return format.map { format in Self.shown(bytes) { try format.text(of: $0) } } ?? Self.hex(bytes)
        }
    }

    /// `describe(bytes)`, or the bytes in hex when they do not fit the type: a trace or a summary still shows
    /// what was sent, and has no place for the decoder's reason.
    private static func shown(_ bytes: [UInt8], _ describe: ([UInt8]) throws -> String) -> String {
        do {
            return try describe(bytes)
        } catch {
            return hex(bytes)
        }
    }

    /// What a value of this type looks like, for error messages.
    var example: String {
        switch self {
        case .temperature: "degrees such as 21.5"
        case .batteryLevel: "a percentage 0...100"
        default: format?.expected ?? rawValue
        }
    }

    /// `0a0b`: the bytes in lower-case hex without a prefix.
    static func hex(_ bytes: [UInt8]) -> String { GATTValueFormat.hexText(bytes, prefixed: false) }
}

/// A typed value written in a scenario: its type and its bytes.
public struct ScenarioValue: Sendable, Hashable, CustomStringConvertible {
    /// How the bytes are read and shown (`uint8`, `int16`, `string`, `temperature`, ...).
    public var type: ScenarioValueType
    /// The value encoded as its type, in the bytes a characteristic holds.
    public var bytes: [UInt8]

    /// A value of a type.
    public init(type: ScenarioValueType, bytes: [UInt8]) {
        self.type = type
        self.bytes = bytes
    }

    /// `21.5 (temperature)`.
    public var description: String { "\(type.text(of: bytes)) (\(type.rawValue))" }

    /// Decodes the value under `valueKey` of `container`, typed by `type`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` at the value's key naming what the type expects.
    static func decode<Key: CodingKey>(
        _ type: ScenarioValueType, forKey valueKey: Key, in container: KeyedDecodingContainer<Key>
    ) throws -> ScenarioValue {
        let text = try container.decode(String.self, forKey: valueKey)
        guard let bytes = type.bytes(of: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: valueKey, in: container,
                debugDescription: "expected \(type.example) for a value of type \(type.rawValue), found '\(text)'")
        }
        return ScenarioValue(type: type, bytes: bytes)
    }

    /// Decodes an optional value under `valueKey`.
    static func decodeIfPresent<Key: CodingKey>(
        _ type: ScenarioValueType, forKey valueKey: Key, in container: KeyedDecodingContainer<Key>
    ) throws -> ScenarioValue? {
        guard container.contains(valueKey) else { return nil }
        return try decode(type, forKey: valueKey, in: container)
    }
}
