/// The type byte of an AD structure (Core Spec Vol 3, Part C, 11; values from Bluetooth Assigned Numbers,
/// Common Data Types; formats in the Core Specification Supplement, Part A).
///
/// A `RawRepresentable` struct rather than an enum: types Airlink does not model are kept as they are.
public struct ADType: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The type's byte.
    public var rawValue: UInt8

    /// Creates an AD type from its byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Creates an AD type from its byte.
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01, Flags (CSS Part A, 1.3).
    public static let flags = ADType(0x01)
    /// 0x02, Incomplete List of 16-bit Service UUIDs (CSS Part A, 1.1).
    public static let incomplete16BitServiceUUIDs = ADType(0x02)
    /// 0x03, Complete List of 16-bit Service UUIDs (CSS Part A, 1.1).
    public static let complete16BitServiceUUIDs = ADType(0x03)
    /// 0x04, Incomplete List of 32-bit Service UUIDs (CSS Part A, 1.1).
    public static let incomplete32BitServiceUUIDs = ADType(0x04)
    /// 0x05, Complete List of 32-bit Service UUIDs (CSS Part A, 1.1).
    public static let complete32BitServiceUUIDs = ADType(0x05)
    /// 0x06, Incomplete List of 128-bit Service UUIDs (CSS Part A, 1.1).
    public static let incomplete128BitServiceUUIDs = ADType(0x06)
    /// 0x07, Complete List of 128-bit Service UUIDs (CSS Part A, 1.1).
    public static let complete128BitServiceUUIDs = ADType(0x07)
    /// 0x08, Shortened Local Name (CSS Part A, 1.2).
    public static let shortenedLocalName = ADType(0x08)
    /// 0x09, Complete Local Name (CSS Part A, 1.2).
    public static let completeLocalName = ADType(0x09)
    /// 0x0A, TX Power Level (CSS Part A, 1.5).
    public static let txPowerLevel = ADType(0x0A)
    /// 0x12, Peripheral Connection Interval Range (CSS Part A, 1.9).
    public static let peripheralConnectionIntervalRange = ADType(0x12)
    /// 0x14, List of 16-bit Service Solicitation UUIDs (CSS Part A, 1.10).
    public static let serviceSolicitation16BitUUIDs = ADType(0x14)
    /// 0x15, List of 128-bit Service Solicitation UUIDs (CSS Part A, 1.10).
    public static let serviceSolicitation128BitUUIDs = ADType(0x15)
    /// 0x16, Service Data - 16-bit UUID (CSS Part A, 1.11).
    public static let serviceData16BitUUID = ADType(0x16)
    /// 0x17, Public Target Address (CSS Part A, 1.13).
    public static let publicTargetAddress = ADType(0x17)
    /// 0x18, Random Target Address (CSS Part A, 1.14).
    public static let randomTargetAddress = ADType(0x18)
    /// 0x19, Appearance (CSS Part A, 1.12).
    public static let appearance = ADType(0x19)
    /// 0x1A, Advertising Interval (CSS Part A, 1.15).
    public static let advertisingInterval = ADType(0x1A)
    /// 0x1F, List of 32-bit Service Solicitation UUIDs (CSS Part A, 1.10).
    public static let serviceSolicitation32BitUUIDs = ADType(0x1F)
    /// 0x20, Service Data - 32-bit UUID (CSS Part A, 1.11).
    public static let serviceData32BitUUID = ADType(0x20)
    /// 0x21, Service Data - 128-bit UUID (CSS Part A, 1.11).
    public static let serviceData128BitUUID = ADType(0x21)
    /// 0x24, URI (CSS Part A, 1.18).
    public static let uri = ADType(0x24)
    /// 0xFF, Manufacturer Specific Data (CSS Part A, 1.4).
    public static let manufacturerSpecificData = ADType(0xFF)

    /// The name from Bluetooth Assigned Numbers, or `"Unknown AD Type"`.
    public var name: String { Self.names[rawValue] ?? "Unknown AD Type" }

    /// `Complete Local Name (0x09)`.
    public var description: String {
        let digits = String(rawValue, radix: 16, uppercase: true)
        return "\(name) (0x\(digits.count == 1 ? "0" : "")\(digits))"
    }

    /// Orders types by byte.
    public static func < (lhs: ADType, rhs: ADType) -> Bool { lhs.rawValue < rhs.rawValue }

    private static let names: [UInt8: String] = [
        0x01: "Flags", 0x02: "Incomplete List of 16-bit Service UUIDs", 0x03: "Complete List of 16-bit Service UUIDs",
        0x04: "Incomplete List of 32-bit Service UUIDs", 0x05: "Complete List of 32-bit Service UUIDs",
        0x06: "Incomplete List of 128-bit Service UUIDs", 0x07: "Complete List of 128-bit Service UUIDs",
        0x08: "Shortened Local Name", 0x09: "Complete Local Name", 0x0A: "TX Power Level",
        0x12: "Peripheral Connection Interval Range", 0x14: "List of 16-bit Service Solicitation UUIDs",
        0x15: "List of 128-bit Service Solicitation UUIDs", 0x16: "Service Data - 16-bit UUID",
        0x17: "Public Target Address", 0x18: "Random Target Address", 0x19: "Appearance",
        0x1A: "Advertising Interval", 0x1F: "List of 32-bit Service Solicitation UUIDs",
        0x20: "Service Data - 32-bit UUID", 0x21: "Service Data - 128-bit UUID", 0x24: "URI",
        0xFF: "Manufacturer Specific Data",
    ]
}
