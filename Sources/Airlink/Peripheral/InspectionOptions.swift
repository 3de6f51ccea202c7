import AirlinkCore

/// What centrals may do with an inspected value.
public struct InspectionOptions: OptionSet, Sendable, Hashable {
    /// Bit 0 read, bit 1 write, bit 2 notify; bits 3 and 4 the protection.
    public let rawValue: UInt8
    /// Creates options from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Centrals may read the value.
    public static let read = InspectionOptions(rawValue: 1)
    /// Centrals may write the value (with response); writes are checked against its type.
    public static let write = InspectionOptions(rawValue: 2)
    /// Centrals may subscribe to changes (notifications).
    public static let notify = InspectionOptions(rawValue: 4)
    /// Centrals read and write the value only over an encrypted link: one that is not earns Insufficient
    /// Encryption (0x0F), and the central pairs (Just Works is enough). Notifications are not protected.
    public static let encryptionRequired = InspectionOptions(rawValue: 8)
    /// Centrals read and write the value only over a link encrypted with an authenticated (MITM-protected)
    /// key: others earn Insufficient Authentication (0x05); pairing needs a passkey or a comparison, so the
    /// inspector's ``Inspector/setSecurity(_:)`` must offer a display or a keyboard.
    public static let authenticationRequired = InspectionOptions(rawValue: 16)

    /// What the options require of a central's link, as attribute permissions for a value read (`.read`) and
    /// written (`.write`): empty for an unprotected value.
    var protection: AttributePermissions {
        var permissions: AttributePermissions = []
        let read = contains(.read)
        let write = contains(.write)
        if contains(.authenticationRequired) {
            if read { permissions.insert(.readAuthenticationRequired) }
            if write { permissions.insert(.writeAuthenticationRequired) }
        } else if contains(.encryptionRequired) {
            if read { permissions.insert(.readEncryptionRequired) }
            if write { permissions.insert(.writeEncryptionRequired) }
        }
        return permissions
    }
}

/// Something a central did to an ``Inspector``'s values.
public enum InspectorEvent: Sendable, Hashable, CustomStringConvertible {
    /// A central wrote a valid value, now stored.
    case written(identifier: String, value: InspectedValue)
    /// A central's write was refused with an ATT error; nothing changed.
    case refused(identifier: String, error: ATTError)

    /// `temperature = 21.5`, `temperature refused: Value Not Allowed (0x13)`.
    public var description: String {
        switch self {
        case .written(let identifier, let value): "\(identifier) = \(value)"
        case .refused(let identifier, let error): "\(identifier) refused: \(error)"
        }
    }
}
