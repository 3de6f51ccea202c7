/// A Bluetooth device address (BD_ADDR): 48 bits, written `C0:FF:EE:00:00:01` (Core Spec Vol 6, Part B, 1.3).
///
/// As written, the most significant byte comes first; on air and over HCI the bytes travel least
/// significant first (``littleEndianBytes``). An address alone does not say whether it is public or
/// random; ``DeviceID`` pairs it with its ``AddressType``.
///
/// Parsing accepts six groups of two hex digits in either case, separated all by colons or all by
/// hyphens (`c0-ff-ee-00-00-01`, as Windows prints addresses). Printing is always uppercase with colons.
public struct BDAddress: Hashable, Comparable, Sendable, StringCodable, LosslessStringConvertible {
    /// The address as a 48-bit number, most significant byte as written first: `0xC0FFEE000001`.
    public let value: UInt64

    /// The address 00:00:00:00:00:00.
    public static let zero = BDAddress(value: 0)

    /// Creates an address from its 48-bit number.
    ///
    /// - Parameter value: the address, `0xC0FFEE000001` for `C0:FF:EE:00:00:01`.
    /// - Precondition: `value` fits in 48 bits.
    public init(value: UInt64) {
        precondition(value >> 48 == 0, "a BD_ADDR has 48 bits; 0x\(String(value, radix: 16)) has more")
        self.value = value
    }

    /// Creates an address from its six bytes in written order, most significant first.
    ///
    /// - Parameter bytes: six bytes, `[0xC0, 0xFF, 0xEE, 0x00, 0x00, 0x01]` for `C0:FF:EE:00:00:01`.
    /// - Throws: ``AirlinkError/Code/invalidDeviceID`` if there are not six bytes.
    public init<Bytes: Collection>(bytes: Bytes) throws(AirlinkError) where Bytes.Element == UInt8 {
        guard bytes.count == 6 else {
            throw AirlinkError(.invalidDeviceID, "a BD_ADDR takes 6 bytes, not \(bytes.count)")
        }
        self.init(value: bytes.reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// Creates an address from six bytes least significant first, as HCI and the air interface carry it.
    ///
    /// - Parameter bytes: six bytes, `[0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0]` for `C0:FF:EE:00:00:01`.
    /// - Throws: ``AirlinkError/Code/invalidDeviceID`` if there are not six bytes.
    public init<Bytes: Collection>(littleEndian bytes: Bytes) throws(AirlinkError) where Bytes.Element == UInt8 {
        try self.init(bytes: bytes.reversed())
    }

    /// The six bytes in written order, most significant first.
    public var bytes: [UInt8] { littleEndianBytes.reversed() }

    /// The six bytes least significant first, as HCI and the air interface carry them.
    public var littleEndianBytes: [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// The kind of random address this would be, read from its two most significant bits
    /// (Core Spec Vol 6, Part B, 1.3.2). Meaningful only for an address known to be random.
    public var randomAddressKind: RandomAddressKind { RandomAddressKind(mostSignificantBits: UInt8(value >> 46)) }

    /// Parses `C0:FF:EE:00:00:01`, in either case, with colons or hyphens.
    ///
    /// - Parameter text: the address as written.
    /// - Throws: ``AirlinkError/Code/invalidDeviceID``, naming the string and what is wrong with it.
    public init(parsing text: String) throws(AirlinkError) {
        func fail(_ why: String) -> AirlinkError {
            AirlinkError(
                .invalidDeviceID,
                "\"\(text)\" is not a Bluetooth device address: \(why); write six pairs of hex digits "
                    + "separated by colons, such as C0:FF:EE:00:00:01")
        }
        if text.contains("-") && text.contains(":") { throw fail("it mixes ':' and '-' separators") }
        let separator: Character = text.contains("-") ? "-" : ":"
        let groups = text.split(separator: separator, omittingEmptySubsequences: false)
        guard groups.count == 6 else {
            if text.isEmpty { throw fail("it is empty") }
            throw fail("it has \(groups.count) group\(groups.count == 1 ? "" : "s") separated by '\(separator)'")
        }
        var value: UInt64 = 0
        for group in groups {
            guard group.count == 2 else { throw fail("the group \"\(group)\" does not have two digits") }
            for character in group {
                guard let nibble = character.hexDigitValue, character.isASCII else {
                    throw fail("'\(character)' is not a hex digit")
                }
                value = value << 4 | UInt64(nibble)
            }
        }
        self.init(value: value)
    }

    /// Parses an address as ``init(parsing:)`` does, returning `nil` on failure.
    public init?(_ description: String) {
        // try?: LosslessStringConvertible's init? has no error to give; init(parsing:) is the one that says why
        guard let address = try? BDAddress(parsing: description) else { return nil }
        self = address
    }

    /// `C0:FF:EE:00:00:01`.
    public var description: String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: ":")
    }

    /// Orders addresses by their 48-bit number.
    public static func < (lhs: BDAddress, rhs: BDAddress) -> Bool { lhs.value < rhs.value }

}
