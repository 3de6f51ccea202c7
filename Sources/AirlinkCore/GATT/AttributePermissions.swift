/// What a server lets a client do with an attribute, and under which link security
/// (Core Spec Vol 3, Part F, 3.2.5; Vol 3, Part G, 3.3.1.1 and 8.1).
///
/// Permissions are not carried over the air; they decide the server's answers. A request that lacks
/// them is refused with Read Not Permitted, Write Not Permitted, Insufficient Encryption,
/// Insufficient Authentication, Insufficient Encryption Key Size or Insufficient Authorization.
///
/// A minimum encryption key size (``minimumKeySize(_:)``) sits in bits 12–15 as Bluedroid's
/// `ESP_GATT_PERM_ENCRYPT_KEY_SIZE` puts it; it applies to reads and writes alike and implies encryption.
/// Declare at most one: two sizes in one set merge into a value that ``minimumKeySize`` reports as invalid.
public struct AttributePermissions: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The permission bits (an Airlink encoding; the specification leaves it to the implementation).
    public var rawValue: UInt16

    /// Creates permissions from their bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The attribute may be read.
    public static let readable = AttributePermissions(rawValue: 1 << 0)
    /// The attribute may be written.
    public static let writable = AttributePermissions(rawValue: 1 << 1)
    /// Reading needs an encrypted link (security level 2 or more).
    public static let readEncryptionRequired = AttributePermissions(rawValue: 1 << 2)
    /// Reading needs an authenticated (MITM-protected) encrypted link (security level 3 or more).
    public static let readAuthenticationRequired = AttributePermissions(rawValue: 1 << 3)
    /// Reading needs the server's application to authorize the client.
    public static let readAuthorizationRequired = AttributePermissions(rawValue: 1 << 4)
    /// Writing needs an encrypted link (security level 2 or more).
    public static let writeEncryptionRequired = AttributePermissions(rawValue: 1 << 5)
    /// Writing needs an authenticated (MITM-protected) encrypted link (security level 3 or more).
    public static let writeAuthenticationRequired = AttributePermissions(rawValue: 1 << 6)
    /// Writing needs the server's application to authorize the client.
    public static let writeAuthorizationRequired = AttributePermissions(rawValue: 1 << 7)

    /// Readable and writable, with no security requirement.
    public static let readWrite: AttributePermissions = [.readable, .writable]

    /// The shortest encryption key the specification allows, 7 bytes (Core Spec Vol 3, Part H, 2.3.4).
    public static let keySizes: ClosedRange<Int> = 7...16

    /// Reading and writing need an encrypted link whose key has at least `bytes` bytes (7 to 16); a shorter
    /// key earns Insufficient Encryption Key Size (0x0C).
    ///
    /// - Throws: ``AirlinkError/Code/invalidSpecification`` for a size outside 7–16.
    public static func minimumKeySize(_ bytes: Int) throws(AirlinkError) -> AttributePermissions {
        guard keySizes.contains(bytes) else {
            throw AirlinkError(
                .invalidSpecification,
                "a minimum key size is 7 to 16 bytes (Core Spec Vol 3, Part H, 2.3.4), not \(bytes)")
        }
        return AttributePermissions(rawValue: UInt16(bytes - 6) << keySizeShift)
    }

    private static let keySizeShift: UInt16 = 12

    /// The minimum encryption key size in bytes, `nil` when none is required; a value outside 7–16 means two
    /// sizes were merged (``PeripheralSpec/validate()`` refuses it).
    public var minimumKeySize: Int? {
        let field = Int(rawValue >> Self.keySizeShift)
        return field == 0 ? nil : field + 6
    }

    /// `readable|writable|readEncryptionRequired`, in bit order; `none` when empty.
    public var description: String {
        var names = Self.names.filter { contains($0.0) }.map(\.1)
        if let size = minimumKeySize { names.append("minimumKeySize\(size)") }
        return names.isEmpty ? "none" : names.joined(separator: "|")
    }

    /// Each single permission with the name a scenario and ``description`` use.
    public static let names: [(AttributePermissions, String)] = [
        (.readable, "readable"), (.writable, "writable"), (.readEncryptionRequired, "readEncryptionRequired"),
        (.readAuthenticationRequired, "readAuthenticationRequired"),
        (.readAuthorizationRequired, "readAuthorizationRequired"),
        (.writeEncryptionRequired, "writeEncryptionRequired"),
        (.writeAuthenticationRequired, "writeAuthenticationRequired"),
        (.writeAuthorizationRequired, "writeAuthorizationRequired"),
    ]
}
