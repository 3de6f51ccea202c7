import AirlinkCore

/// What centrals may do with an inspected value.
public struct InspectionOptions: OptionSet, Sendable, Hashable {
    /// Bit 0 read, bit 1 write, bit 2 notify, as the inspector's descriptor carries them.
    public let rawValue: UInt8
    /// Creates options from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Centrals may read the value.
    public static let read = InspectionOptions(rawValue: 1)
    /// Centrals may write the value (with response); writes are checked against its type.
    public static let write = InspectionOptions(rawValue: 2)
    /// Centrals may subscribe to changes (notifications).
    public static let notify = InspectionOptions(rawValue: 4)
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
