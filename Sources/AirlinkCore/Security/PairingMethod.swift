/// How two devices authenticate while pairing (Core Spec Vol 3, Part H, 2.3.5.1).
public enum PairingMethod: Hashable, Sendable, CustomStringConvertible {
    /// No user involvement; the key is not authenticated (security level 2).
    case justWorks
    /// One side shows a six-digit passkey and the other's user types it, or both users type the same one.
    case passkeyEntry(PasskeyRoles)
    /// Both sides show a six-digit number and each user confirms they match (Secure Connections only).
    case numericComparison
    /// The keys' proof travels over another channel (NFC, a QR code).
    case outOfBand

    /// Who shows the passkey and who types it.
    public enum PasskeyRoles: Hashable, Sendable {
        /// The central (initiator) shows it; the peripheral's user types it.
        case centralDisplays
        /// The peripheral (responder) shows it; the central's user types it.
        case peripheralDisplays
        /// Neither shows one: both users type the same passkey.
        case bothEnter
    }

    /// Whether the key it yields is authenticated (protects against a man in the middle).
    public var isAuthenticated: Bool { self != .justWorks }

    /// `passkey entry (peripheral displays)`.
    public var description: String {
        switch self {
        case .justWorks: "just works"
        case .passkeyEntry(.centralDisplays): "passkey entry (central displays)"
        case .passkeyEntry(.peripheralDisplays): "passkey entry (peripheral displays)"
        case .passkeyEntry(.bothEnter): "passkey entry (both enter)"
        case .numericComparison: "numeric comparison"
        case .outOfBand: "out of band"
        }
    }

    /// The method the specification chooses for a central (initiator) and a peripheral (responder): out of band
    /// when the data is there (both sides' for legacy pairing, either's for Secure Connections), Just Works when
    /// neither asks for MITM protection, else the IO capability table (Vol 3, Part H, 2.3.5.1, tables 2.6–2.8).
    public static func chosen(central: PairingFeatures, peripheral: PairingFeatures) -> PairingMethod {
        let secureConnections = central.secureConnections && peripheral.secureConnections
        let oob =
            secureConnections
            ? central.hasOOBData || peripheral.hasOOBData : central.hasOOBData && peripheral.hasOOBData
        if oob { return .outOfBand }
        if !central.mitm && !peripheral.mitm { return .justWorks }
        return fromIO(central: central.io, peripheral: peripheral.io, secureConnections: secureConnections)
    }

    /// Table 2.8: the method from the initiator's (central's) and responder's (peripheral's) IO capabilities.
    static func fromIO(central: IOCapability, peripheral: IOCapability, secureConnections: Bool) -> PairingMethod {
        let comparisonOrCentralDisplays: PairingMethod =
            secureConnections ? .numericComparison : .passkeyEntry(.centralDisplays)
        switch (central, peripheral) {
        case (.noInputNoOutput, _), (_, .noInputNoOutput): return .justWorks
        case (.displayOnly, .displayOnly), (.displayOnly, .displayYesNo), (.displayYesNo, .displayOnly):
            return .justWorks
        case (.displayYesNo, .displayYesNo): return secureConnections ? .numericComparison : .justWorks
        case (.keyboardOnly, .keyboardOnly): return .passkeyEntry(.bothEnter)
        case (.keyboardOnly, _): return .passkeyEntry(.peripheralDisplays)
        case (_, .keyboardOnly): return .passkeyEntry(.centralDisplays)
        case (.keyboardDisplay, .displayOnly): return .passkeyEntry(.peripheralDisplays)
        case (.displayOnly, .keyboardDisplay): return .passkeyEntry(.centralDisplays)
        case (.keyboardDisplay, .displayYesNo):
            return secureConnections ? .numericComparison : .passkeyEntry(.peripheralDisplays)
        case (.displayYesNo, .keyboardDisplay), (.keyboardDisplay, .keyboardDisplay):
            return comparisonOrCentralDisplays
        }
    }
}
