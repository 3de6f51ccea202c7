/// The central's user during pairing: what they type, see and confirm (Core Spec Vol 3, Part H, 2.3.5).
///
/// A simulated user looks at the peer's display too: ``enterPasskey`` is told the passkey the peripheral shows,
/// if it shows one. The virtual radio asks the agent when pairing starts (its answers take no virtual time);
/// the closures must not call the radio.
public struct PairingAgent: Sendable {
    /// The passkey the user types: given the one the peer displays (`nil` when neither side displays one, in
    /// passkey entry where both users type the same number); `nil` cancels (Passkey Entry Failed).
    public var enterPasskey: @Sendable (_ shownOnPeer: UInt32?) -> UInt32?
    /// Shows the passkey the peripheral's user must type.
    public var displayPasskey: @Sendable (UInt32) -> Void
    /// Whether the user confirms that both devices show this six-digit number (Numeric Comparison).
    public var confirmNumber: @Sendable (UInt32) -> Bool

    /// Creates an agent from its three answers.
    public init(
        enterPasskey: @escaping @Sendable (_ shownOnPeer: UInt32?) -> UInt32?,
        displayPasskey: @escaping @Sendable (UInt32) -> Void = { _ in },
        confirmNumber: @escaping @Sendable (UInt32) -> Bool
    ) {
        self.enterPasskey = enterPasskey
        self.displayPasskey = displayPasskey
        self.confirmNumber = confirmNumber
    }

    /// A user who types what the peer shows (or 123456 when nothing is shown) and confirms matching numbers.
    public static let attentive = PairingAgent(enterPasskey: { $0 ?? 123_456 }, confirmNumber: { _ in true })

    /// A user who types `passkey` whatever the peer shows, and confirms numbers.
    public static func entering(_ passkey: UInt32) -> PairingAgent {
        PairingAgent(enterPasskey: { _ in passkey }, confirmNumber: { _ in true })
    }

    /// A user who cancels passkey entry and says compared numbers differ.
    public static let refusing = PairingAgent(enterPasskey: { _ in nil }, confirmNumber: { _ in false })
}
