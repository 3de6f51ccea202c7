import AirlinkCore
import ArgumentParser

/// How a characteristic's value is typed on the command line (`--format`): little-endian integers
/// as GATT carries them (Core Spec Vol 3, Part G, 3.3.3.5), UTF-8 text, or raw hex.
enum ValueFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case hex, uint8, uint16, uint32, int8, int16, int32, utf8, bool

    /// What to type, for messages.
    static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// The value as text in this format.
    ///
    /// - Throws: ``AirlinkError/Code/malformedData`` when the bytes do not fit the format.
    func text(of bytes: [UInt8]) throws(AirlinkError) -> String {
        switch self {
        case .hex: Hex.text(bytes)
        case .uint8: String(try UInt8(gattBytes: bytes))
        case .uint16: String(try UInt16(gattBytes: bytes))
        case .uint32: String(try UInt32(gattBytes: bytes))
        case .int8: String(try Int8(gattBytes: bytes))
        case .int16: String(try Int16(gattBytes: bytes))
        case .int32: String(try Int32(gattBytes: bytes))
        case .utf8: try String(gattBytes: bytes)
        case .bool: String(try Bool(gattBytes: bytes))
        }
    }

    /// The bytes a typed value stands for.
    ///
    /// - Throws: `ValidationError` saying what to type.
    func bytes(of text: String) throws(ValidationError) -> [UInt8] {
        func integer<Value: FixedWidthInteger & GATTValue>(_ type: Value.Type) throws(ValidationError) -> [UInt8] {
            guard let value = Value(text) else {
                throw ValidationError(
                    "\"\(text)\" is not a \(rawValue) (\(Value.min)...\(Value.max)); write a whole number in range, "
                        + "or choose another --format")
            }
            return value.gattBytes
        }
        switch self {
        case .hex:
            guard let bytes = Hex.bytes(text) else {
                throw ValidationError(
                    "\"\(text)\" is not hex: write pairs of hex digits such as 0x0A0B or 0a0b, or type it with "
                        + "--format (\(Self.names))")
            }
            return bytes
        case .uint8: return try integer(UInt8.self)
        case .uint16: return try integer(UInt16.self)
        case .uint32: return try integer(UInt32.self)
        case .int8: return try integer(Int8.self)
        case .int16: return try integer(Int16.self)
        case .int32: return try integer(Int32.self)
        case .utf8: return Array(text.utf8)
        case .bool:
            switch text.lowercased() {
            case "true", "1", "on": return [1]
            case "false", "0", "off": return [0]
            default: throw ValidationError("\"\(text)\" is not a bool: write true or false")
            }
        }
    }
}

/// Hex text for bytes: `0x0a0b`, or `0a0b`, either case.
enum Hex {
    /// `0x0a0b` (`0x` alone for no bytes).
    static func text(_ bytes: [UInt8]) -> String {
        "0x"
            + bytes.map { byte in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
    }

    /// Parses `0x0A0B` or `0a0b` (an even number of hex digits; `0x` or empty for no bytes).
    static func bytes(_ text: String) -> [UInt8]? {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
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
    }
}
