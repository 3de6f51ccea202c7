/// The security of an LE link, as LE Security Mode 1 grades it (Core Spec Vol 3, Part C, 10.2.1).
///
/// A GATT server compares it with an attribute's ``AttributePermissions`` to choose between
/// Insufficient Encryption and Insufficient Authentication (Vol 3, Part G, 8.1).
public enum LinkSecurityLevel: Int, Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Level 1: no security, neither encryption nor authentication.
    case none = 1
    /// Level 2: encrypted with an unauthenticated (Just Works) key.
    case encrypted = 2
    /// Level 3: encrypted with an authenticated (MITM-protected) key.
    case authenticated = 3
    /// Level 4: encrypted with an authenticated LE Secure Connections key of 128 bits.
    case authenticatedSecureConnections = 4

    /// Whether the link is encrypted (level 2 or more).
    public var isEncrypted: Bool { self >= .encrypted }

    /// Whether the link's key is authenticated (level 3 or more).
    public var isAuthenticated: Bool { self >= .authenticated }

    /// Orders levels from no security to Secure Connections.
    public static func < (lhs: LinkSecurityLevel, rhs: LinkSecurityLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `level 2 (encrypted)`.
    public var description: String {
        let name: String
        switch self {
        case .none: name = "no security"
        case .encrypted: name = "encrypted"
        case .authenticated: name = "authenticated"
        case .authenticatedSecureConnections: name = "authenticated Secure Connections"
        }
        return "level \(rawValue) (\(name))"
    }
}
