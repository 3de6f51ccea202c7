/// One AD item of an ``Advertising`` declaration.
public enum AdvertisingItem: Sendable, Hashable {
    /// Flags (AD type 0x01).
    case flags(Advertisement.Flags)
    /// Complete or shortened local name (0x09, 0x08).
    case localName(Advertisement.LocalName)
    /// Service UUIDs (0x02–0x07), complete unless `incomplete`.
    case serviceUUIDs([BluetoothUUID], incomplete: Bool)
    /// Manufacturer specific data (0xFF).
    case manufacturerData(Advertisement.ManufacturerData)
    /// Service data (0x16, 0x20, 0x21).
    case serviceData(Advertisement.ServiceData)
    /// TX power level in dBm (0x0A).
    case txPower(Int8)
    /// Appearance (0x19).
    case appearance(Appearance)
}

/// Builds the AD items of an ``Advertising`` declaration.
@resultBuilder
public enum AdvertisingBuilder {
    /// An item.
    public static func buildExpression(_ item: AdvertisingItem) -> [AdvertisingItem] { [item] }
    /// A local name.
    public static func buildExpression(_ item: LocalName) -> [AdvertisingItem] { [.localName(item.name)] }
    /// Service UUIDs.
    public static func buildExpression(_ item: ServiceUUIDs) -> [AdvertisingItem] {
        [.serviceUUIDs(item.uuids, incomplete: item.isIncomplete)]
    }
    /// Manufacturer data.
    public static func buildExpression(_ item: ManufacturerData) -> [AdvertisingItem] { [.manufacturerData(item.data)] }
    /// Service data.
    public static func buildExpression(_ item: ServiceData) -> [AdvertisingItem] { [.serviceData(item.data)] }
    /// TX power.
    public static func buildExpression(_ item: TxPower) -> [AdvertisingItem] { [.txPower(item.dBm)] }
    /// Appearance.
    public static func buildExpression(_ item: AdvertisedAppearance) -> [AdvertisingItem] {
        [.appearance(item.appearance)]
    }
    /// Flags.
    public static func buildExpression(_ item: AdvertisingFlags) -> [AdvertisingItem] { [.flags(item.flags)] }
    /// Items in sequence.
    public static func buildBlock(_ parts: [AdvertisingItem]...) -> [AdvertisingItem] { parts.flatMap { $0 } }
    /// An optional item.
    public static func buildOptional(_ part: [AdvertisingItem]?) -> [AdvertisingItem] { part ?? [] }
    /// One branch of a condition.
    public static func buildEither(first part: [AdvertisingItem]) -> [AdvertisingItem] { part }
    /// The other branch of a condition.
    public static func buildEither(second part: [AdvertisingItem]) -> [AdvertisingItem] { part }
    /// Items of a loop.
    public static func buildArray(_ parts: [[AdvertisingItem]]) -> [AdvertisingItem] { parts.flatMap { $0 } }
}
