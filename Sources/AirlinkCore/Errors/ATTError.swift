/// An ATT error code, as carried by an Error Response (Core Spec Vol 3, Part F, 3.4.1.1).
///
/// A `RawRepresentable` struct rather than an enum: the application range (0x80–0x9F) and the
/// common profile range (0xE0–0xFF) stay open, and unknown codes from a peer are kept as they are.
public struct ATTError: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The code's byte.
    public var rawValue: UInt8

    /// Creates an ATT error from its byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Creates an ATT error from its byte.
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: the attribute handle given was not valid on this server.
    public static let invalidHandle = ATTError(0x01)
    /// 0x02: the attribute cannot be read.
    public static let readNotPermitted = ATTError(0x02)
    /// 0x03: the attribute cannot be written.
    public static let writeNotPermitted = ATTError(0x03)
    /// 0x04: the attribute PDU was invalid.
    public static let invalidPDU = ATTError(0x04)
    /// 0x05: the attribute requires authentication before it can be read or written.
    public static let insufficientAuthentication = ATTError(0x05)
    /// 0x06: the server does not support the request received from the client.
    public static let requestNotSupported = ATTError(0x06)
    /// 0x07: the offset specified was past the end of the attribute.
    public static let invalidOffset = ATTError(0x07)
    /// 0x08: the attribute requires authorization before it can be read or written.
    public static let insufficientAuthorization = ATTError(0x08)
    /// 0x09: too many prepare writes have been queued.
    public static let prepareQueueFull = ATTError(0x09)
    /// 0x0A: no attribute found within the given attribute handle range.
    public static let attributeNotFound = ATTError(0x0A)
    /// 0x0B: the attribute cannot be read using the Read Blob Request.
    public static let attributeNotLong = ATTError(0x0B)
    /// 0x0C: the encryption key size used for encrypting this link is too short.
    public static let insufficientEncryptionKeySize = ATTError(0x0C)
    /// 0x0D: the attribute value length is invalid for the operation.
    public static let invalidAttributeValueLength = ATTError(0x0D)
    /// 0x0E: the request encountered an unlikely error and could not be completed.
    public static let unlikelyError = ATTError(0x0E)
    /// 0x0F: the attribute requires encryption before it can be read or written.
    public static let insufficientEncryption = ATTError(0x0F)
    /// 0x10: the attribute type is not a supported grouping attribute.
    public static let unsupportedGroupType = ATTError(0x10)
    /// 0x11: insufficient resources to complete the request.
    public static let insufficientResources = ATTError(0x11)
    /// 0x12: the server requests the client to rediscover the database.
    public static let databaseOutOfSync = ATTError(0x12)
    /// 0x13: the attribute parameter value was not allowed.
    public static let valueNotAllowed = ATTError(0x13)
    /// 0xFD: Client Characteristic Configuration Descriptor improperly configured (CSS Part B, 1.2).
    public static let cccdImproperlyConfigured = ATTError(0xFD)
    /// 0xFE: a procedure is already in progress (CSS Part B, 1.2).
    public static let procedureAlreadyInProgress = ATTError(0xFE)
    /// 0xFF: the value is out of range (CSS Part B, 1.2).
    public static let outOfRange = ATTError(0xFF)

    /// Whether the code lies in the application error range, 0x80–0x9F.
    public var isApplicationError: Bool { (0x80...0x9F).contains(rawValue) }

    /// The name the specification gives, or a description of the range the code lies in.
    public var name: String {
        if let name = Self.names[rawValue] { return name }
        switch rawValue {
        case 0x80...0x9F: return "Application Error"
        case 0xE0...0xFF: return "Common Profile and Service Error"
        default: return "Reserved"
        }
    }

    /// `Write Not Permitted (0x03)`.
    public var description: String {
        let digits = String(rawValue, radix: 16, uppercase: true)
        return "\(name) (0x\(digits.count == 1 ? "0" : "")\(digits))"
    }

    private static let names: [UInt8: String] = [
        0x01: "Invalid Handle", 0x02: "Read Not Permitted", 0x03: "Write Not Permitted",
        0x04: "Invalid PDU", 0x05: "Insufficient Authentication", 0x06: "Request Not Supported",
        0x07: "Invalid Offset", 0x08: "Insufficient Authorization", 0x09: "Prepare Queue Full",
        0x0A: "Attribute Not Found", 0x0B: "Attribute Not Long", 0x0C: "Encryption Key Size Too Short",
        0x0D: "Invalid Attribute Value Length", 0x0E: "Unlikely Error", 0x0F: "Insufficient Encryption",
        0x10: "Unsupported Group Type", 0x11: "Insufficient Resources", 0x12: "Database Out Of Sync",
        0x13: "Value Not Allowed", 0xFC: "Write Request Rejected",
        0xFD: "Client Characteristic Configuration Descriptor Improperly Configured",
        0xFE: "Procedure Already in Progress", 0xFF: "Out of Range",
    ]
}
