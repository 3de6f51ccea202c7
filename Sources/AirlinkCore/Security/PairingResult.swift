/// What a successful pairing or re-encryption left on the link.
public struct PairingResult: Hashable, Sendable, CustomStringConvertible {
    /// The method the devices paired with; `nil` when the link was encrypted again with an existing bond.
    public var method: PairingMethod?
    /// The link's security now.
    public var level: LinkSecurityLevel
    /// The encryption key's size in bytes, 7 to 16.
    public var keySize: Int
    /// Whether both sides keep the keys for later connections.
    public var bonded: Bool

    /// Creates a result.
    public init(method: PairingMethod?, level: LinkSecurityLevel, keySize: Int, bonded: Bool) {
        self.method = method
        self.level = level
        self.keySize = keySize
        self.bonded = bonded
    }

    /// `level 4 (authenticated Secure Connections) keySize=16 bonded`.
    public var description: String { "\(level) keySize=\(keySize)" + (bonded ? " bonded" : "") }
}
