/// Why a side ended pairing, as its Pairing Failed command says (Core Spec Vol 3, Part H, 3.5.5).
public struct PairingFailureReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The reason code.
    public var rawValue: UInt8

    /// Creates a reason from its code.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The user failed to enter a passkey, or cancelled (0x01).
    public static let passkeyEntryFailed = PairingFailureReason(rawValue: 0x01)
    /// Out-of-band data is not available (0x02).
    public static let oobNotAvailable = PairingFailureReason(rawValue: 0x02)
    /// The IO capabilities cannot give the protection a side requires (0x03).
    public static let authenticationRequirements = PairingFailureReason(rawValue: 0x03)
    /// The confirm value did not match: in passkey entry, the passkeys differed (0x04).
    public static let confirmValueFailed = PairingFailureReason(rawValue: 0x04)
    /// The device does not pair (0x05).
    public static let pairingNotSupported = PairingFailureReason(rawValue: 0x05)
    /// The resulting key would be too short for the device (0x06).
    public static let encryptionKeySize = PairingFailureReason(rawValue: 0x06)
    /// The command is not supported (0x07).
    public static let commandNotSupported = PairingFailureReason(rawValue: 0x07)
    /// No other reason applies (0x08).
    public static let unspecifiedReason = PairingFailureReason(rawValue: 0x08)
    /// Too little time passed since the last attempt (0x09).
    public static let repeatedAttempts = PairingFailureReason(rawValue: 0x09)
    /// A command's parameters were invalid (0x0A).
    public static let invalidParameters = PairingFailureReason(rawValue: 0x0A)
    /// The Secure Connections DHKey check failed (0x0B).
    public static let dhKeyCheckFailed = PairingFailureReason(rawValue: 0x0B)
    /// A user said the numbers shown differ (0x0C).
    public static let numericComparisonFailed = PairingFailureReason(rawValue: 0x0C)
    /// BR/EDR pairing is under way (0x0D).
    public static let brEDRPairingInProgress = PairingFailureReason(rawValue: 0x0D)
    /// Cross-transport key derivation is not allowed (0x0E).
    public static let crossTransportKeyDerivationNotAllowed = PairingFailureReason(rawValue: 0x0E)
    /// The device rejects the keys distributed (0x0F).
    public static let keyRejected = PairingFailureReason(rawValue: 0x0F)

    /// The name the specification gives (`Confirm Value Failed`), `Reserved` for other codes.
    public var name: String { Self.names[Int(rawValue)] ?? "Reserved" }

    /// `Confirm Value Failed (0x04)`.
    public var description: String {
        "\(name) (0x" + (rawValue < 0x10 ? "0" : "") + String(rawValue, radix: 16, uppercase: true) + ")"
    }

    private static let names: [Int: String] = [
        0x01: "Passkey Entry Failed", 0x02: "OOB Not Available", 0x03: "Authentication Requirements",
        0x04: "Confirm Value Failed", 0x05: "Pairing Not Supported", 0x06: "Encryption Key Size",
        0x07: "Command Not Supported", 0x08: "Unspecified Reason", 0x09: "Repeated Attempts",
        0x0A: "Invalid Parameters", 0x0B: "DHKey Check Failed", 0x0C: "Numeric Comparison Failed",
        0x0D: "BR/EDR Pairing In Progress", 0x0E: "Cross-transport Key Derivation Not Allowed",
        0x0F: "Key Rejected",
    ]
}
