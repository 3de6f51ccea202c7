/// A Bluetooth UUID in any of its three forms: 16-bit, 32-bit or 128-bit.
///
/// Short forms are expanded over the Bluetooth Base UUID `00000000-0000-1000-8000-00805F9B34FB`
/// (Core Spec Vol 3, Part B, 2.5.1), so equality holds across forms: `0x180F` equals
/// `0000180F-0000-1000-8000-00805F9B34FB`. A UUID prints in its shortest form (`180F`, `F000AA00`
/// is 32-bit only when it lies over the base) and parses from `"180F"`, `"0x180F"`, eight hex
/// digits, or the 36-character form.
public struct BluetoothUUID: Hashable, Sendable, Comparable {
    // Stored as two 64-bit halves rather than one `UInt128`: a 16-byte-aligned stored property
    // makes Swift 6.3.1 debug builds crash in async functions with typed throws that take several
    // GATT values (for example `Transport.discoverDescriptors(_:of:in:)`); see Docs/adr/0005 and its
    // reproduction, Scripts/compiler-repros/uint128-async-arguments.swift.
    @usableFromInline let high: UInt64
    @usableFromInline let low: UInt64

    /// The hash a `Dictionary` or `Set` files the UUID under: a cheap mix instead of SipHash (a splitmix64
    /// finalizer; Docs/Performance.md): the layers look characteristics and observers up by UUID on every
    /// request and notification.
    ///
    /// The low half is mixed with the table's seed first and the high half into that, so which UUIDs
    /// collide depends on the seed: a peer cannot list UUIDs that all fall in one bucket (a linear fold of
    /// the halves let it pick, for any low half, the high half that collides).
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        cheapHash(high, seed: cheapHash(low, seed: seed))
    }

    /// The full 128-bit value, most significant byte first as written.
    public var value: UInt128 { UInt128(high) << 64 | UInt128(low) }

    /// The Bluetooth Base UUID, 00000000-0000-1000-8000-00805F9B34FB.
    public static let base = BluetoothUUID(value: 0x0000_0000_0000_1000_8000_0080_5F9B_34FB)

    /// Creates a UUID from its 128-bit value.
    public init(value: UInt128) {
        high = UInt64(truncatingIfNeeded: value >> 64)
        low = UInt64(truncatingIfNeeded: value)
    }

    /// Creates a UUID from a 16-bit assigned number, expanded over the Base UUID.
    public init(_ short: UInt16) { self.init(value: Self.base.value | (UInt128(short) << 96)) }

    /// Creates a UUID from a 32-bit assigned number, expanded over the Base UUID.
    public init(uint32: UInt32) { self.init(value: Self.base.value | (UInt128(uint32) << 96)) }

    /// Whether the UUID lies over the Base UUID and so has a 16- or 32-bit form.
    public var isShort: Bool { value & ((1 << 96) - 1) == Self.base.value }

    /// The 16-bit form, if the UUID has one.
    public var uint16: UInt16? {
        guard isShort, value >> 96 <= 0xFFFF else { return nil }
        return UInt16(truncatingIfNeeded: value >> 96)
    }

    /// The 32-bit form, if the UUID has one (every 16-bit UUID has one too).
    public var uint32: UInt32? {
        guard isShort else { return nil }
        return UInt32(truncatingIfNeeded: value >> 96)
    }

    /// The number of bytes of the UUID's shortest form: 2, 4 or 16.
    public var shortestByteCount: Int {
        if uint16 != nil { return 2 }
        if uint32 != nil { return 4 }
        return 16
    }

    /// The shortest form's bytes, least significant first, as ATT and AD structures carry them.
    public var littleEndianBytes: [UInt8] { littleEndianBytes(count: shortestByteCount) }

    /// The UUID's bytes, least significant first, in the form of `count` bytes (2, 4 or 16).
    ///
    /// - Precondition: the UUID has a form of that size.
    public func littleEndianBytes(count: Int) -> [UInt8] {
        let source: UInt128 = count == 16 ? value : value >> 96
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: source >> (8 * index))) }
        return bytes
    }

    /// Creates a UUID from 2, 4 or 16 bytes, least significant first, as ATT and AD structures carry them.
    ///
    /// - Throws: ``AirlinkError/Code/invalidUUID`` for any other length.
    ///
    /// Inlinable: the ATT decoders and the discovery procedures of other modules call it for every
    /// attribute type they meet, where an unspecialized call over a generic `Collection` cost a third
    /// of a full connect-and-discover cycle (Docs/Performance.md).
    @inlinable
    public init<Bytes: Collection>(littleEndian bytes: Bytes) throws(AirlinkError) where Bytes.Element == UInt8 {
        let count = bytes.count
        guard count == 2 || count == 4 || count == 16 else { throw Self.lengthError(count) }
        var raw: UInt128 = 0
        var shift: UInt128 = 0
        for byte in bytes {
            raw |= UInt128(byte) << shift
            shift += 8
        }
        self.init(value: count == 16 ? raw : Self.base.value | (raw << 96))
    }

    /// The error of ``init(littleEndian:)`` for `count` bytes.
    @usableFromInline
    static func lengthError(_ count: Int) -> AirlinkError {
        AirlinkError(.invalidUUID, "a Bluetooth UUID takes 2, 4 or 16 bytes, not \(count)")
    }

    /// Orders UUIDs by their 128-bit value.
    public static func < (lhs: BluetoothUUID, rhs: BluetoothUUID) -> Bool { lhs.value < rhs.value }
}
