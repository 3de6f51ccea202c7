import AirlinkCore

/// A step of the Security Manager's exchange on one link, as the trace records it (an `smp` line): what each side
/// sent, decided or asked its user, and how the link ended up encrypted (Core Spec Vol 3, Part H, 2.3 and 3).
///
/// `>` marks what the central sends, `<` what the peripheral sends; the rest are decisions and users' answers.
public enum PairingStep: Sendable, Hashable {
    /// A side of the pairing, for what its user does.
    public enum Side: String, Sendable, Hashable {
        /// The central: the side that sends the Pairing Request.
        case central
        /// The peripheral: the side that answers with the Pairing Response.
        case peripheral
    }

    /// `> pairing request …`: the central's Pairing Request with its features.
    case request(PairingFeatures)
    /// `< pairing response …`: the peripheral's Pairing Response with its features.
    case response(PairingFeatures)
    /// `method …`: the method both sides chose from their features.
    case method(PairingMethod)
    /// `out-of-band data checked`.
    case outOfBandChecked
    /// `both display 042137`: numeric comparison's number, shown on both sides.
    case bothDisplay(UInt32)
    /// `central user confirms`, `peripheral user confirms`: a user confirmed the compared number.
    case userConfirms(Side)
    /// `peripheral displays passkey 042137`: the side that shows the passkey the other types.
    case displaysPasskey(Side, UInt32)
    /// `central user enters 042137`: what a user typed (the step does not say whether it was right).
    case userEnters(Side, UInt32)
    /// `> pairing failed: …` (the central sent Pairing Failed) or `< pairing failed: …` (the peripheral did).
    case failed(PairingFailureReason, byCentral: Bool)
    /// `pairing timed out (SMP, 30s)`: nobody answered within SMP's timeout.
    case timedOut
    /// `encrypted … keySize=16`: pairing ended with the link encrypted at a level.
    case encrypted(LinkSecurityLevel, keySize: Int)
    /// `keys distributed: bonded`: both sides bonded.
    case bonded
    /// `> encryption request with the bond`: the central encrypts again with its bond's key.
    case reencryptionRequest
    /// `encrypted … keySize=16 with the bond`: the peripheral had the key.
    case reencrypted(LinkSecurityLevel, keySize: Int)
    /// `< encryption failed: PIN or Key Missing (0x06)`: the peripheral had no key for the bond.
    case keyMissing
    /// `< SMP_SECURITY_REQUEST …`: the peripheral asked the central to pair or encrypt.
    case securityRequest(SecurityRequest)
    /// `central forgets the bond`: the central's user removed the device.
    case centralForgetsBond
    /// `encrypted by the host: … keySize=16`: a host above the radio (the HCI controller's) encrypted the link.
    case encryptedByHost(LinkSecurityLevel, keySize: Int)
    /// `peripheral role pairs as …`: an app's peripheral role set the features it pairs with.
    case peripheralRoleFeatures(PairingFeatures)

    /// The step as the trace line has it, after the device.
    public var text: String {
        switch self {
        case .request(let features): "> pairing request \(features)"
        case .response(let features): "< pairing response \(features)"
        case .method(let method): "method \(method)"
        case .outOfBandChecked: "out-of-band data checked"
        case .bothDisplay(let number): "both display \(Self.digits(number))"
        case .userConfirms(let side): "\(side.rawValue) user confirms"
        case .displaysPasskey(let side, let passkey): "\(side.rawValue) displays passkey \(Self.digits(passkey))"
        case .userEnters(let side, let passkey): "\(side.rawValue) user enters \(Self.digits(passkey))"
        case .failed(let reason, let byCentral): "\(byCentral ? ">" : "<") pairing failed: \(reason)"
        case .timedOut: "pairing timed out (SMP, 30s)"
        case .encrypted(let level, let keySize): "encrypted \(level) keySize=\(keySize)"
        case .bonded: "keys distributed: bonded"
        case .reencryptionRequest: "> encryption request with the bond"
        case .reencrypted(let level, let keySize): "encrypted \(level) keySize=\(keySize) with the bond"
        case .keyMissing: "< encryption failed: PIN or Key Missing (0x06)"
        case .securityRequest(let request): "< SMP_SECURITY_REQUEST \(request)"
        case .centralForgetsBond: "central forgets the bond"
        case .encryptedByHost(let level, let keySize): "encrypted by the host: \(level) keySize=\(keySize)"
        case .peripheralRoleFeatures(let features): "peripheral role pairs as \(features)"
        }
    }

    /// `042137`: a passkey as users see it, six digits.
    static func digits(_ number: UInt32) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, 6 - text.count)) + text
    }
}
