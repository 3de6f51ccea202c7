/// Raw bytes, as they are.
extension Array: GATTValue where Element == UInt8 {
    /// Takes the bytes as they are.
    public init(gattBytes: [UInt8]) throws(AirlinkError) { self = gattBytes }
    /// The bytes themselves.
    public var gattBytes: [UInt8] { self }
}

/// UTF-8 text (the format of Device Name and the Device Information strings, GSS `utf8s`).
extension String: GATTValue {
    /// Decodes UTF-8.
    ///
    /// - Throws: ``AirlinkError/Code/malformedData`` at the offset of the first invalid byte.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        var iterator = gattBytes.makeIterator()
        var decoder = UTF8()
        var scalars = String.UnicodeScalarView()
        var offset = 0
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                scalars.append(scalar)
                offset += UTF8.width(scalar)
            case .emptyInput: break loop
            case .error:
                throw AirlinkError(.malformedData, "the text is not valid UTF-8 at offset \(offset)")
            }
        }
        self = String(scalars)
    }
    /// The UTF-8 bytes.
    public var gattBytes: [UInt8] { Array(utf8) }
}

/// A little-endian fixed-width integer (GSS `uint8` ... `uint64`, `sint8` ... `sint64`).
extension FixedWidthInteger where Self: GATTValue {
    /// Decodes a little-endian integer of exactly this width.
    @inlinable
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try Self.requireLength(gattBytes, MemoryLayout<Self>.size...MemoryLayout<Self>.size)
        var value: Self = 0
        for (index, byte) in gattBytes.enumerated() { value |= Self(truncatingIfNeeded: byte) << (8 * index) }
        self = value
    }
    /// The little-endian bytes.
    @inlinable
    public var gattBytes: [UInt8] {
        withUnsafeBytes(of: littleEndian) { Array($0) }
    }
}

extension UInt8: GATTValue {}
extension UInt16: GATTValue {}
extension UInt32: GATTValue {}
extension UInt64: GATTValue {}
extension Int8: GATTValue {}
extension Int16: GATTValue {}
extension Int32: GATTValue {}
extension Int64: GATTValue {}

/// A Boolean as one byte: 0x00 false, 0x01 true (GSS `boolean`).
extension Bool: GATTValue {
    /// Decodes 0x00 or 0x01.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try Self.requireLength(gattBytes, 1...1)
        switch gattBytes[0] {
        case 0: self = false
        case 1: self = true
        default:
            throw AirlinkError(.malformedData, "a Boolean is 0x00 or 0x01, not \(gattBytes[0]) (offset 0)")
        }
    }
    /// 0x00 or 0x01.
    public var gattBytes: [UInt8] { [self ? 1 : 0] }
}
