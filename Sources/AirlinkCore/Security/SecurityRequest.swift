/// What a peripheral's Security Request asks of the central (SMP 0x0B, its AuthReq field; Core Spec Vol 3,
/// Part H, 3.6.7): the central should pair, or encrypt with the bond it has.
public struct SecurityRequest: Hashable, Sendable, CustomStringConvertible {
    /// Whether the peripheral wants to bond (keep the keys).
    public var bonding: Bool
    /// Whether it wants an authenticated key (protection against a man in the middle).
    public var mitm: Bool
    /// Whether it wants LE Secure Connections.
    public var secureConnections: Bool

    /// Creates a request; by default bonding, Secure Connections, no MITM requirement.
    public init(bonding: Bool = true, mitm: Bool = false, secureConnections: Bool = true) {
        self.bonding = bonding
        self.mitm = mitm
        self.secureConnections = secureConnections
    }

    /// `bonding mitm sc` (what is asked, in AuthReq's bit order), or `none`.
    public var description: String {
        let parts = [bonding ? "bonding" : nil, mitm ? "mitm" : nil, secureConnections ? "sc" : nil]
        let named = parts.compactMap { $0 }
        return named.isEmpty ? "none" : named.joined(separator: " ")
    }
}
