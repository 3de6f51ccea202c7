/// The properties byte of a characteristic declaration: which operations the characteristic permits
/// (Core Spec Vol 3, Part G, 3.3.1.1).
///
/// Prints as the set names joined by `|`, for example `read|notify`.
public struct CharacteristicProperties: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The Characteristic Properties byte of the declaration (Core Spec Vol 3, Part G, 3.3.1.1).
    public var rawValue: UInt8

    /// Creates properties from the declaration's byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: the value may be broadcast in advertising data (needs the Server Characteristic Configuration).
    public static let broadcast = CharacteristicProperties(rawValue: 0x01)
    /// 0x02: the value may be read.
    public static let read = CharacteristicProperties(rawValue: 0x02)
    /// 0x04: the value may be written with a Write Command, without response.
    public static let writeWithoutResponse = CharacteristicProperties(rawValue: 0x04)
    /// 0x08: the value may be written with a Write Request, with response.
    public static let write = CharacteristicProperties(rawValue: 0x08)
    /// 0x10: the value may be notified, without acknowledgement (needs a CCCD).
    public static let notify = CharacteristicProperties(rawValue: 0x10)
    /// 0x20: the value may be indicated, with acknowledgement (needs a CCCD).
    public static let indicate = CharacteristicProperties(rawValue: 0x20)
    /// 0x40: the value may be written with a Signed Write Command.
    public static let authenticatedSignedWrites = CharacteristicProperties(rawValue: 0x40)
    /// 0x80: further properties are in the Characteristic Extended Properties descriptor (0x2900).
    public static let extendedProperties = CharacteristicProperties(rawValue: 0x80)

    /// Whether the characteristic can notify or indicate, and so carries a CCCD (Vol 3, Part G, 3.3.3.3).
    public var canSubscribe: Bool { !isDisjoint(with: [.notify, .indicate]) }

    /// `read|write|notify`, in bit order; `none` when empty; unknown bits never occur (all eight are named).
    public var description: String {
        let names = Self.names.filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: "|")
    }

    private static let names: [(CharacteristicProperties, String)] = [
        (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "writeWithoutResponse"),
        (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
        (.authenticatedSignedWrites, "authenticatedSignedWrites"), (.extendedProperties, "extendedProperties"),
    ]
}
