/// The external appearance of a device: a 10-bit category and a 6-bit subcategory
/// (Bluetooth Assigned Numbers, Appearance Values; carried by the Appearance AD type, CSS Part A, 1.12,
/// and the Appearance characteristic 0x2A01).
public struct Appearance: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 16-bit value: category in the upper 10 bits, subcategory in the lower 6.
    public var rawValue: UInt16

    /// Creates an appearance from its 16-bit value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Creates an appearance from its 16-bit value.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// Creates an appearance from its category and subcategory.
    ///
    /// - Parameters:
    ///   - category: the category, 0 to 1023.
    ///   - subcategory: the subcategory, 0 to 63; 0 is the generic device of the category.
    /// - Precondition: both are in range.
    public init(category: UInt16, subcategory: UInt8 = 0) {
        precondition(category < 1024 && subcategory < 64, "appearance category or subcategory out of range")
        self.rawValue = category << 6 | UInt16(subcategory)
    }

    /// The category, the upper 10 bits.
    public var category: UInt16 { rawValue >> 6 }

    /// The subcategory, the lower 6 bits.
    public var subcategory: UInt8 { UInt8(rawValue & 0x3F) }

    /// 0x0000, Unknown.
    public static let unknown = Appearance(0x0000)
    /// 0x0040, Generic Phone.
    public static let genericPhone = Appearance(0x0040)
    /// 0x0080, Generic Computer.
    public static let genericComputer = Appearance(0x0080)
    /// 0x00C0, Generic Watch.
    public static let genericWatch = Appearance(0x00C0)
    /// 0x0200, Generic Tag.
    public static let genericTag = Appearance(0x0200)
    /// 0x0300, Generic Thermometer.
    public static let genericThermometer = Appearance(0x0300)
    /// 0x0340, Generic Heart Rate Sensor.
    public static let genericHeartRateSensor = Appearance(0x0340)
    /// 0x03C0, Generic Human Interface Device.
    public static let genericHumanInterfaceDevice = Appearance(0x03C0)
    /// 0x03C1, Keyboard.
    public static let keyboard = Appearance(0x03C1)
    /// 0x03C2, Mouse.
    public static let mouse = Appearance(0x03C2)

    /// `0x03C1`.
    public var description: String { "0x" + hex4(rawValue) }
}
