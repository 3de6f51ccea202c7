/// How a characteristic's value is written as text: little-endian integers as GATT carries them
/// (Core Spec Vol 3, Part G, 3.3.3.5, the GSS `uint8` ... `sint32` formats), a Boolean, UTF-8 text or
/// raw bytes in hexadecimal.
///
/// The CLI's `--format` and the scenario files' value types parse and print values through this type,
/// so `airlink write --format int16 -2500` and a scenario's `int16` value `-2500` mean the same bytes.
///
/// ```swift
/// try GATTValueFormat.int16.bytes(of: "-2500")   // [0x3C, 0xF6]
/// try GATTValueFormat.hex.bytes(of: "0x0a0b")     // [0x0A, 0x0B]
/// try GATTValueFormat.uint8.text(of: [0x57])      // "87"
/// ```
public enum GATTValueFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Raw bytes as pairs of hex digits, either case: `0x0a0b`, `0A0B`, `0a 0b`, `0a:0b` (an optional
    /// `0x` prefix; white space and colons are ignored). Printed as `0x0a0b`.
    case hex
    /// An unsigned integer, 1 byte.
    case uint8
    /// An unsigned integer, 2 bytes little-endian.
    case uint16
    /// An unsigned integer, 4 bytes little-endian.
    case uint32
    /// A signed integer, 1 byte.
    case int8
    /// A signed integer, 2 bytes little-endian.
    case int16
    /// A signed integer, 4 bytes little-endian.
    case int32
    /// UTF-8 text, taken as written (no trimming).
    case utf8
    /// One byte, 0x00 or 0x01: written `true`/`false`, `1`/`0`, `yes`/`no` or `on`/`off`, any case.
    case bool

    /// `hex`, `uint8`, ...: the name a user types.
    public var description: String { rawValue }

    /// What a value of this format looks like, for messages: `a whole number 0...255`.
    public var expected: String {
        switch self {
        case .hex: "pairs of hex digits such as 0x0A0B or 0a0b"
        case .uint8: "a whole number \(UInt8.min)...\(UInt8.max)"
        case .uint16: "a whole number \(UInt16.min)...\(UInt16.max)"
        case .uint32: "a whole number \(UInt32.min)...\(UInt32.max)"
        case .int8: "a whole number \(Int8.min)...\(Int8.max)"
        case .int16: "a whole number \(Int16.min)...\(Int16.max)"
        case .int32: "a whole number \(Int32.min)...\(Int32.max)"
        case .utf8: "text"
        case .bool: "true or false"
        }
    }

    /// The bytes a value written in this format stands for.
    ///
    /// - Parameter text: the value as written (not trimmed: callers trim if their syntax allows spaces).
    /// - Returns: the bytes, little-endian for integers.
    /// - Throws: ``AirlinkError/Code/invalidArgument`` naming the text, the format and what to write instead
    ///   (for hex, the offending digit and its offset).
    public func bytes(of text: String) throws(AirlinkError) -> [UInt8] {
        switch self {
        case .hex: return try Self.hexBytes(text)
        case .uint8: return try integer(UInt8.self, text)
        case .uint16: return try integer(UInt16.self, text)
        case .uint32: return try integer(UInt32.self, text)
        case .int8: return try integer(Int8.self, text)
        case .int16: return try integer(Int16.self, text)
        case .int32: return try integer(Int32.self, text)
        case .utf8: return Array(text.utf8)
        case .bool:
            switch text.lowercased() {
            case "true", "1", "yes", "on": return [1]
            case "false", "0", "no", "off": return [0]
            default: throw invalid(text)
            }
        }
    }

    /// A value's bytes as text in this format (`87`, `true`, `0x0a0b`).
    ///
    /// - Throws: ``AirlinkError/Code/malformedData`` when the bytes do not fit the format (a length other
    ///   than the integer's width, a Boolean byte other than 0 or 1, invalid UTF-8).
    public func text(of bytes: [UInt8]) throws(AirlinkError) -> String {
        switch self {
        case .hex: Self.hexText(bytes)
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

    /// `0x0a0b`: lower-case hex digits after `0x` (`0x` alone for no bytes).
    ///
    /// - Parameters:
    ///   - bytes: the bytes.
    ///   - prefixed: whether to start with `0x`.
    public static func hexText(_ bytes: [UInt8], prefixed: Bool = true) -> String {
        let digits: [Character] = Array("0123456789abcdef")
        var text = prefixed ? "0x" : ""
        text.reserveCapacity(text.count + 2 * bytes.count)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    private func integer<Value: FixedWidthInteger & GATTValue>(_ type: Value.Type, _ text: String)
        throws(AirlinkError) -> [UInt8]
    {
        guard let value = Value(text) else { throw invalid(text) }
        return value.gattBytes
    }

    private func invalid(_ text: String, detail: String = "") -> AirlinkError {
        AirlinkError(
            .invalidArgument, "\"\(text)\" is not a \(rawValue)\(detail): write \(expected)",
            context: "parse a \(rawValue) value")
    }

    /// Parses hex text: an optional `0x`, then pairs of hex digits, with white space and colons ignored.
    private static func hexBytes(_ text: String) throws(AirlinkError) -> [UInt8] {
        var scalars = Substring(text).unicodeScalars
        if scalars.starts(with: "0x".unicodeScalars) || scalars.starts(with: "0X".unicodeScalars) {
            scalars = scalars.dropFirst(2)
        }
        var bytes: [UInt8] = []
        var high: UInt8?
        var offset = text.unicodeScalars.count - scalars.count
        for scalar in scalars {
            defer { offset += 1 }
            if scalar.properties.isWhitespace || scalar == ":" { continue }
            guard let digit = hexDigit(scalar) else {
                throw GATTValueFormat.hex.invalid(text, detail: " ('\(scalar)' at offset \(offset) is not a hex digit)")
            }
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        guard high == nil else {
            throw GATTValueFormat.hex.invalid(text, detail: " (an odd number of hex digits)")
        }
        return bytes
    }

    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar.value {
        case 0x30...0x39: UInt8(scalar.value - 0x30)
        case 0x41...0x46: UInt8(scalar.value - 0x41 + 10)
        case 0x61...0x66: UInt8(scalar.value - 0x61 + 10)
        default: nil
        }
    }
}
