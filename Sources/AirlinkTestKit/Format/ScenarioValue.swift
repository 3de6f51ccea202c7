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
    /// The thermostat's ``Temperature``: degrees, sint16 in hundredths.
    case temperature
    /// ``BatteryLevel``: 0–100 %.
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

    /// Encodes a value's text.
    ///
    /// - Returns: the bytes, or `nil` when the text is not a value of this type.
    func bytes(of text: String) -> [UInt8]? {
        let text = text.trimmingWhitespace
        switch self {
        case .uint8: return UInt8(text).map(\.gattBytes)
        case .uint16: return UInt16(text).map(\.gattBytes)
        case .uint32: return UInt32(text).map(\.gattBytes)
        case .int8: return Int8(text).map(\.gattBytes)
        case .int16: return Int16(text).map(\.gattBytes)
        case .int32: return Int32(text).map(\.gattBytes)
        case .bool:
            switch text.lowercased() {
            case "true", "1", "yes", "on": return [1]
            case "false", "0", "no", "off": return [0]
            default: return nil
            }
        case .string: return Array(text.utf8)
        case .bytes:
            let digits = text.filter { !$0.isWhitespace && $0 != ":" }
            guard digits.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            var index = digits.startIndex
            while index < digits.endIndex {
                let next = digits.index(index, offsetBy: 2)
                guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
                bytes.append(byte)
                index = next
            }
            return bytes
        case .temperature:
            guard let degrees = Double(text), let value = try? Temperature(checkingDegrees: degrees) else { return nil }
            return value.gattBytes
        case .batteryLevel:
            guard let percent = Int(text), let value = try? BatteryLevel(checking: percent) else { return nil }
            return value.gattBytes
        }
    }

    /// A value's bytes as text of this type (`21.5`, `87`, `0a0b`), for traces and summaries.
    func text(of bytes: [UInt8]) -> String {
        func integer<T: GATTValue>(_ type: T.Type) -> String {
            (try? T(gattBytes: bytes)).map { "\($0)" } ?? Self.hex(bytes)
        }
        switch self {
        case .uint8: return integer(UInt8.self)
        case .uint16: return integer(UInt16.self)
        case .uint32: return integer(UInt32.self)
        case .int8: return integer(Int8.self)
        case .int16: return integer(Int16.self)
        case .int32: return integer(Int32.self)
        case .bool: return bytes == [1] ? "true" : bytes == [0] ? "false" : Self.hex(bytes)
        case .string: return String(decoding: bytes, as: UTF8.self)
        case .bytes: return Self.hex(bytes)
        case .temperature: return (try? Temperature(gattBytes: bytes)).map { "\($0.degrees)" } ?? Self.hex(bytes)
        case .batteryLevel: return (try? BatteryLevel(gattBytes: bytes)).map { "\($0.percent)" } ?? Self.hex(bytes)
        }
    }

    /// What a value of this type looks like, for error messages.
    var example: String {
        switch self {
        case .uint8: "an integer 0...255"
        case .uint16: "an integer 0...65535"
        case .uint32: "an integer 0...4294967295"
        case .int8: "an integer -128...127"
        case .int16: "an integer -32768...32767"
        case .int32: "a 32-bit signed integer"
        case .bool: "true or false"
        case .string: "text"
        case .bytes: "hexadecimal bytes such as 0a0b"
        case .temperature: "degrees such as 21.5"
        case .batteryLevel: "a percentage 0...100"
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }
}

/// A typed value written in a scenario: its type and its bytes.
public struct ScenarioValue: Sendable, Hashable, CustomStringConvertible {
    /// The type.
    public var type: ScenarioValueType
    /// The encoded value.
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
