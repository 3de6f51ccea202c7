/// How an app serving a database (the peripheral role, ``PeripheralTransport``) answers a central that pairs:
/// what its Pairing Response offers, who its user is, and whether it asks centrals to pair
/// (Core Spec Vol 3, Part H).
///
/// ```swift
/// try await radio.setSecurity(
///     PeripheralRoleSecurity(
///         features: PairingFeatures(io: .displayOnly, mitm: true),
///         agent: PairingAgent(enterPasskey: { _ in nil }, displayPasskey: { print($0) }, confirmNumber: { _ in true })
///     ))
/// ```
public struct PeripheralRoleSecurity: Sendable {
    /// What its Pairing Response offers: IO capabilities, bonding (`bonding: false` keeps no keys), MITM,
    /// Secure Connections, the largest key. By default a device without display or keyboard that bonds.
    public var features: PairingFeatures
    /// The app's user: ``PairingAgent/displayPasskey`` shows the passkey the central's user types,
    /// ``PairingAgent/enterPasskey`` types the one the central shows, ``PairingAgent/confirmNumber`` confirms
    /// a Numeric Comparison.
    public var agent: PairingAgent
    /// The Security Request it sends each central after the link's setup (SMP 0x0B); `nil` never asks.
    public var request: SecurityRequest?

    /// Creates the role's security; the defaults pair by Just Works, bond, and never ask.
    public init(
        features: PairingFeatures = PairingFeatures(io: .noInputNoOutput), agent: PairingAgent = .attentive,
        request: SecurityRequest? = nil
    ) {
        self.features = features
        self.agent = agent
        self.request = request
    }
}
