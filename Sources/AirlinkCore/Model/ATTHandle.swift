/// An attribute handle: the 16-bit index of an attribute in a GATT server's database.
///
/// Handles run from 0x0001 to 0xFFFF; 0x0000 is reserved (Core Spec Vol 3, Part F, 3.2.2).
public struct ATTHandle: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The handle's value.
    public var rawValue: UInt16

    /// Creates a handle from its value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Creates a handle from its value.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// The lowest valid handle, 0x0001.
    public static let min = ATTHandle(0x0001)
    /// The highest valid handle, 0xFFFF.
    public static let max = ATTHandle(0xFFFF)

    /// Orders handles by value.
    public static func < (lhs: ATTHandle, rhs: ATTHandle) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `0x002A`.
    public var description: String { "0x" + hex4(rawValue) }

    /// The hash a `Dictionary` or `Set` files the handle under: a cheap mix instead of SipHash, as
    /// the tables on a notification's path look handles up several times a value (a splitmix64 finalizer;
    /// Docs/Performance.md). A handle is 16 bits, so no two handles share a value before the seeded mix.
    @inlinable
    public func _rawHashValue(seed: Int) -> Int { cheapHash(UInt64(rawValue), seed: seed) }
}

/// Four uppercase hexadecimal digits.
func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
}
