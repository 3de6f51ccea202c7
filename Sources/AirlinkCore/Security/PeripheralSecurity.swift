/// How a simulated peripheral's Security Manager answers pairing, and what its user does
/// (Core Spec Vol 3, Part H).
public struct PeripheralSecurity: Hashable, Sendable {
    /// What its Pairing Response offers; by default a device without display or keyboard that bonds.
    public var features: PairingFeatures
    /// The passkey it shows when it displays one; `nil` draws one from the simulation's seeded random source.
    public var passkey: UInt32?
    /// What its user does when pairing needs them.
    public var user: PeripheralUser
    /// The Pairing Failed reason it answers every Pairing Request with (`.pairingNotSupported`); `nil` pairs.
    public var refusal: PairingFailureReason?
    /// The Security Request it sends one connection interval after each link's setup (SMP 0x0B); `nil` never
    /// asks.
    public var request: SecurityRequest?

    /// Creates a peripheral's security.
    public init(
        features: PairingFeatures = PairingFeatures(io: .noInputNoOutput), passkey: UInt32? = nil,
        user: PeripheralUser = .attentive(after: .seconds(1)), refusal: PairingFailureReason? = nil,
        request: SecurityRequest? = nil
    ) {
        self.features = features
        self.passkey = passkey
        self.user = user
        self.refusal = refusal
        self.request = request
    }
}

/// The person at a simulated peripheral during pairing.
public enum PeripheralUser: Hashable, Sendable {
    /// Types the passkey the central shows (or the central user's, when both type) and confirms matching numbers,
    /// taking this long.
    case attentive(after: Duration)
    /// Types this passkey, whatever is shown, after the given time.
    case enters(UInt32, after: Duration)
    /// Cancels passkey entry and rejects compared numbers, after the given time.
    case rejects(after: Duration)
    /// Never answers: pairing that needs them ends with SMP's 30-second timeout.
    case absent
}
