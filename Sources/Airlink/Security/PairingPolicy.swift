import AirlinkCore

/// How a connection pairs: what its Pairing Requests offer, who answers for its user, and whether an
/// operation the device refuses for want of security pairs and runs once more by itself.
///
/// Mobile stacks do the latter: Android and iOS pair when a read or write earns Insufficient Authentication
/// (ATT 0x05) or Insufficient Encryption (0x0F), then repeat it. Airlink does it only when the app opts in
/// (``pairWhenRefused(features:agent:)``), because pairing may ask the user something.
///
/// ```swift
/// let agent = PairingAgent(enterPasskey: { _ in readLine().flatMap { UInt32($0) } }, confirmNumber: { _ in true })
/// connection.setPairingPolicy(.pairWhenRefused(features: PairingFeatures(io: .keyboardDisplay, mitm: true),
///                                              agent: agent))
/// ```
public struct PairingPolicy: Sendable {
    /// What ``ConnectionManager/pair(features:agent:)`` offers when the app passes no features.
    public var features: PairingFeatures
    /// Who types and confirms for the app's user when the app passes no agent.
    public var agent: PairingAgent
    /// Whether an operation refused with Insufficient Authentication or Encryption pairs (or encrypts with the
    /// bond) and runs once more, and whether a device's Security Request pairs (or encrypts with the bond)
    /// rather than reaching the app as ``/AirlinkCore/ConnectionEvent/securityRequested(_:)``.
    public var pairsWhenRefused: Bool

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - features: the Pairing Request's features; by default Just Works (no input, no output), bonding.
    ///   - agent: the user's answers; by default a user who cancels passkey entry and rejects comparisons, so that
    ///     nothing is confirmed the app did not ask for.
    ///   - pairsWhenRefused: whether refused operations pair and run once more.
    public init(
        features: PairingFeatures = PairingFeatures(io: .noInputNoOutput), agent: PairingAgent = .refusing,
        pairsWhenRefused: Bool = false
    ) {
        self.features = features
        self.agent = agent
        self.pairsWhenRefused = pairsWhenRefused
    }

    /// The default: the app pairs by calling ``ConnectionManager/pair(features:agent:)``; a refused operation
    /// fails with the ATT error, its message saying how to pair.
    public static let manual = PairingPolicy()

    /// Pairs with `features` and `agent` when an operation is refused for want of security, and runs it once
    /// more.
    public static func pairWhenRefused(
        features: PairingFeatures = PairingFeatures(io: .noInputNoOutput), agent: PairingAgent = .refusing
    ) -> PairingPolicy {
        PairingPolicy(features: features, agent: agent, pairsWhenRefused: true)
    }
}
