/// What one side puts in its Pairing Request or Pairing Response (Core Spec Vol 3, Part H, 3.5.1 and 3.5.2).
public struct PairingFeatures: Hashable, Sendable, CustomStringConvertible {
    /// What the side can show and take from its user.
    public var io: IOCapability
    /// Whether it holds out-of-band data for its peer.
    public var hasOOBData: Bool
    /// Whether it asks to bond (keep the keys for later connections).
    public var bonding: Bool
    /// Whether it requires protection against a man in the middle (an authenticated key).
    public var mitm: Bool
    /// Whether it supports LE Secure Connections.
    public var secureConnections: Bool
    /// The longest key it accepts, 7 to 16 bytes.
    public var maximumKeySize: Int

    /// Creates features; the defaults are a modern stack's: bonding, Secure Connections, 16-byte keys, no MITM
    /// requirement.
    public init(
        io: IOCapability, hasOOBData: Bool = false, bonding: Bool = true, mitm: Bool = false,
        secureConnections: Bool = true, maximumKeySize: Int = 16
    ) {
        self.io = io
        self.hasOOBData = hasOOBData
        self.bonding = bonding
        self.mitm = mitm
        self.secureConnections = secureConnections
        self.maximumKeySize = maximumKeySize
    }

    /// `io=keyboard-display bonding mitm sc keySize=16`, as the trace shows a request or response.
    public var description: String {
        var parts = ["io=\(io)"]
        if hasOOBData { parts.append("oob") }
        if bonding { parts.append("bonding") }
        if mitm { parts.append("mitm") }
        if secureConnections { parts.append("sc") }
        parts.append("keySize=\(maximumKeySize)")
        return parts.joined(separator: " ")
    }
}
