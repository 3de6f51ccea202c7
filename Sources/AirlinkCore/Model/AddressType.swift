/// Whether a device address is public (IEEE-assigned) or random (Core Spec Vol 6, Part B, 1.3).
public enum AddressType: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// A public device address, taken from the IEEE registry (Core Spec Vol 6, Part B, 1.3.1).
    case `public`
    /// A random device address: static, resolvable private or non-resolvable private
    /// (Core Spec Vol 6, Part B, 1.3.2); ``BDAddress/randomAddressKind`` tells which.
    case random

    /// The address type's value in HCI commands and events: 0x00 public, 0x01 random
    /// (Core Spec Vol 4, Part E, 7.8.5, `Own_Address_Type`, and 7.7.65.2, `Address_Type`).
    public var hciValue: UInt8 {
        switch self {
        case .public: 0x00
        case .random: 0x01
        }
    }

    /// Creates an address type from its HCI value.
    ///
    /// - Parameter hciValue: 0x00 for public, 0x01 for random.
    /// - Throws: ``AirlinkError/Code/malformedData`` for any other value.
    public init(hciValue: UInt8) throws(AirlinkError) {
        switch hciValue {
        case 0x00: self = .public
        case 0x01: self = .random
        default:
            throw AirlinkError(
                .malformedData,
                "address type 0x\(String(hciValue, radix: 16)) is neither public (0x00) nor random (0x01)")
        }
    }

    /// `public` or `random`.
    public var description: String { rawValue }
}
