import AirlinkCore
import Foundation

/// A value an ``Inspector`` publishes and an ``InspectorClient`` reads, with its type: the Inspector value
/// encoding, version 1 (Docs/Inspector.md).
///
/// On air the bytes are the value's natural encoding, so that any BLE tool can show it (the
/// characteristic's Presentation Format, 0x2904, says how): a Bool is one byte (0 or 1), integers are
/// little-endian in their width, a Double is IEEE 754 binary64 little-endian, a String is UTF-8,
/// bytes are themselves, and a Codable value is its JSON in UTF-8. The type and the encoding's
/// version travel in the characteristic's UUID (``InspectorLayout/characteristicUUID(index:type:)``).
public enum InspectedValue: Sendable, Hashable, CustomStringConvertible {
    /// A Boolean.
    case bool(Bool)
    /// An unsigned integer of 8, 16, 32 or 64 bits.
    case unsigned(UInt64, bits: Int)
    /// A signed integer of 8, 16, 32 or 64 bits.
    case signed(Int64, bits: Int)
    /// A Double.
    case double(Double)
    /// A String.
    case string(String)
    /// Raw bytes.
    case bytes([UInt8])
    /// A Codable value as JSON (UTF-8).
    case json([UInt8])

    /// The value's type.
    public var type: InspectedType {
        switch self {
        case .bool: .bool
        case .unsigned(_, let bits): InspectedType.unsigned(bits: bits)
        case .signed(_, let bits): InspectedType.signed(bits: bits)
        case .double: .double
        case .string: .string
        case .bytes: .bytes
        case .json: .json
        }
    }

    /// The bytes on air.
    public var bytes: [UInt8] {
        switch self {
        case .bool(let value): [value ? 1 : 0]
        case .unsigned(let value, let bits): (0..<bits / 8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        case .signed(let value, let bits):
            (0..<bits / 8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> (8 * $0)) }
        case .double(let value): (0..<8).map { UInt8(truncatingIfNeeded: value.bitPattern >> (8 * $0)) }
        case .string(let value): Array(value.utf8)
        case .bytes(let value), .json(let value): value
        }
    }

    /// Decodes bytes as a value of `type`.
    ///
    /// - Throws: ``/AirlinkCore/ATTRefusal`` with Invalid Attribute Value Length (0x0D) for a fixed-size type and
    ///   bytes of another length, Value Not Allowed (0x13) for a Bool other than 0 or 1, text that is not
    ///   UTF-8, or JSON that does not parse.
    public init(decoding bytes: [UInt8], as type: InspectedType) throws(ATTRefusal) {
        if let size = type.fixedSize, bytes.count != size { throw ATTRefusal(.invalidAttributeValueLength) }
        func little() -> UInt64 { bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        switch type.code {
        case InspectedType.bool.code:
            guard bytes[0] <= 1 else { throw ATTRefusal(.valueNotAllowed) }
            self = .bool(bytes[0] == 1)
        case 0x02...0x05: self = .unsigned(little(), bits: type.fixedSize! * 8)
        case 0x06...0x09:
            let bits = type.fixedSize! * 8
            let shift = UInt64(64 - bits)
            self = .signed(Int64(bitPattern: little() << shift) >> Int64(shift), bits: bits)
        case InspectedType.double.code: self = .double(Double(bitPattern: little()))
        case InspectedType.string.code:
            guard let text = String(validating: bytes, as: UTF8.self) else { throw ATTRefusal(.valueNotAllowed) }
            self = .string(text)
        case InspectedType.json.code:
            // try?: the central learns the refusal (Value Not Allowed); the parser's reason is not sent on air
            guard (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil else {
                throw ATTRefusal(.valueNotAllowed)
            }
            self = .json(bytes)
        default: self = .bytes(bytes)
        }
    }

    /// `true`, `21.5`, `"text"`, `0x0102`, `{"a":1}`.
    public var description: String {
        switch self {
        case .bool(let value): "\(value)"
        case .unsigned(let value, _): "\(value)"
        case .signed(let value, _): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .bytes(let value): "0x" + value.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        case .json(let value): String(decoding: value, as: UTF8.self)
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// The type of an inspected value: a code of the Inspector value encoding.
public struct InspectedType: Sendable, Hashable, CustomStringConvertible {
    /// The type code (byte 3 of the characteristic UUID).
    public let code: UInt8

    /// The type with a code (an unknown code stands for a type of a later version).
    public init(code: UInt8) { self.code = code }

    /// Bool (1 byte).
    public static let bool = InspectedType(code: 0x01)
    /// UInt8...UInt64.
    public static func unsigned(bits: Int) -> InspectedType { InspectedType(code: 0x02 + widthIndex(bits)) }
    /// Int8...Int64.
    public static func signed(bits: Int) -> InspectedType { InspectedType(code: 0x06 + widthIndex(bits)) }
    /// Double (8 bytes).
    public static let double = InspectedType(code: 0x0A)
    /// String (UTF-8).
    public static let string = InspectedType(code: 0x0B)
    /// Raw bytes.
    public static let bytes = InspectedType(code: 0x0C)
    /// JSON (UTF-8), for Codable values.
    public static let json = InspectedType(code: 0x0D)

    private static func widthIndex(_ bits: Int) -> UInt8 {
        switch bits {
        case 8: 0
        case 16: 1
        case 32: 2
        default: 3
        }
    }

    /// Whether the code is one this version of the encoding defines.
    public var isKnown: Bool { (0x01...0x0D).contains(code) }

    /// The size of every value of the type, or `nil` if it varies.
    public var fixedSize: Int? {
        switch code {
        case 0x01: 1
        case 0x02...0x05: 1 << Int(code - 0x02)
        case 0x06...0x09: 1 << Int(code - 0x06)
        case 0x0A: 8
        default: nil
        }
    }

    /// The format of the Characteristic Presentation Format descriptor (0x2904) for generic tools
    /// (Bluetooth Assigned Numbers, 2.4.1 Formats).
    public var presentationFormat: UInt8 {
        switch code {
        case 0x01: 0x01  // boolean
        case 0x02: 0x04  // uint8
        case 0x03: 0x06  // uint16
        case 0x04: 0x08  // uint32
        case 0x05: 0x0A  // uint64
        case 0x06: 0x0C  // sint8
        case 0x07: 0x0E  // sint16
        case 0x08: 0x10  // sint32
        case 0x09: 0x12  // sint64
        case 0x0A: 0x15  // float64
        case 0x0B, 0x0D: 0x19  // utf8s
        default: 0x1B  // struct (opaque)
        }
    }

    /// `Bool`, `UInt16`, `Double`, `JSON`.
    public var description: String {
        switch code {
        case 0x01: "Bool"
        case 0x02...0x05: "UInt\(fixedSize! * 8)"
        case 0x06...0x09: "Int\(fixedSize! * 8)"
        case 0x0A: "Double"
        case 0x0B: "String"
        case 0x0C: "Bytes"
        case 0x0D: "JSON"
        default: "unknown type 0x\(String(code, radix: 16))"
        }
    }
}
