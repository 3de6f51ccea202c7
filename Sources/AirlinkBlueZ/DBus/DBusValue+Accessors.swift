extension DBusValue {
    /// The string of an `s`, `o` or `g` value.
    package var string: String? {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): text
        case .variant(let inner): inner.string
        default: nil
        }
    }

    /// The flag of a `b` value.
    package var bool: Bool? {
        switch self {
        case .boolean(let flag): flag
        case .variant(let inner): inner.bool
        default: nil
        }
    }

    /// Any integer value, widened.
    package var integer: Int? {
        switch self {
        case .byte(let n): Int(n)
        case .int16(let n): Int(n)
        case .uint16(let n): Int(n)
        case .int32(let n): Int(n)
        case .uint32(let n): Int(n)
        case .int64(let n): Int(n)
        case .uint64(let n): Int(exactly: n)
        case .variant(let inner): inner.integer
        default: nil
        }
    }

    /// The bytes of an `ay` value.
    package var bytes: [UInt8]? {
        switch self {
        case .bytes(let bytes): bytes
        case .variant(let inner): inner.bytes
        default: nil
        }
    }

    /// The strings of an `as` or `ao` value.
    package var strings: [String]? {
        switch self {
        case .array(_, let values):
            let strings = values.compactMap(\.string)
            return strings.count == values.count ? strings : nil
        case .variant(let inner): return inner.strings
        default: return nil
        }
    }

    /// The entries of a dictionary value.
    package var entries: [DBusDictionaryEntry]? {
        switch self {
        case .dictionary(_, _, let entries): entries
        case .variant(let inner): inner.entries
        default: nil
        }
    }
}
