/// What a server lets a client do with an attribute, and under which link security
/// (Core Spec Vol 3, Part F, 3.2.5; Vol 3, Part G, 3.3.1.1 and 8.1).
///
/// Permissions are not carried over the air; they decide the server's answers. A request that lacks
/// them is refused with Read Not Permitted, Write Not Permitted, Insufficient Encryption,
/// Insufficient Authentication or Insufficient Authorization.
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

    /// `readable|writable|readEncryptionRequired`, in bit order; `none` when empty.
    public var description: String {
        let names = Self.names.filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: "|")
    }

    private static let names: [(AttributePermissions, String)] = [
        (.readable, "readable"), (.writable, "writable"), (.readEncryptionRequired, "readEncryptionRequired"),
        (.readAuthenticationRequired, "readAuthenticationRequired"),
        (.readAuthorizationRequired, "readAuthorizationRequired"),
        (.writeEncryptionRequired, "writeEncryptionRequired"),
        (.writeAuthenticationRequired, "writeAuthenticationRequired"),
        (.writeAuthorizationRequired, "writeAuthorizationRequired"),
    ]
}
