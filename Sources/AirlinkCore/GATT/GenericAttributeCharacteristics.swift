/// Which characteristics a simulated peripheral's Generic Attribute service (0x1801) serves
/// (Core Spec Vol 3, Part G, 7).
///
/// Every one is optional in the specification, and many devices have none: a server whose database never
/// changes needs no Service Changed, and one without robust caching needs neither Client Supported Features
/// nor the Database Hash. The service's declaration stays whatever is left out; the characteristics that are
/// served come in this order, so leaving one out moves the handles of those after it:
///
/// | characteristic | handles with all three |
/// | --- | --- |
/// | Service Changed 0x2A05 (indicate, with its CCCD) | 0x0007–0x0009 |
/// | Client Supported Features 0x2B29 (read, write) | 0x000A–0x000B |
/// | Database Hash 0x2B2A (read) | 0x000C–0x000D |
public struct GenericAttributeCharacteristics: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// One bit per characteristic.
    public var rawValue: UInt8

    /// Creates a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Service Changed (0x2A05, Vol 3, Part G, 7.1): indicates the handle range a database change affected.
    public static let serviceChanged = GenericAttributeCharacteristics(rawValue: 0x01)
    /// Client Supported Features (0x2B29, Vol 3, Part G, 7.2): a client enables robust caching with bit 0.
    public static let clientSupportedFeatures = GenericAttributeCharacteristics(rawValue: 0x02)
    /// Database Hash (0x2B2A, Vol 3, Part G, 7.3): the fingerprint of the database's layout.
    public static let databaseHash = GenericAttributeCharacteristics(rawValue: 0x04)

    /// All three, what a peripheral serves unless its spec says otherwise.
    public static let all: GenericAttributeCharacteristics = [.serviceChanged, .clientSupportedFeatures, .databaseHash]

    /// Each characteristic with the name scenarios and messages use, in handle order.
    public static let names: [(GenericAttributeCharacteristics, String)] = [
        (.serviceChanged, "serviceChanged"), (.clientSupportedFeatures, "clientSupportedFeatures"),
        (.databaseHash, "databaseHash"),
    ]

    /// `serviceChanged|databaseHash`, in handle order; `none` when empty.
    public var description: String {
        let names = Self.names.filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: "|")
    }
}
