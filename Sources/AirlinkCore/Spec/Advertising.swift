/// How a simulated peripheral advertises: its interval, whether centrals may connect, and the
/// advertising data built from AD items (Core Spec Vol 6, Part B, 4.4.2.2; Vol 3, Part C, 11).
///
/// ```swift
/// Advertising(every: .milliseconds(100)) {
///     LocalName("Battery")
///     ServiceUUIDs(.battery)
///     TxPower(0)
/// }
/// ```
///
/// The encoded payload must fit the 31 bytes of a legacy advertisement; a longer one is rejected
/// when the simulation is built. Flags (LE General Discoverable, BR/EDR not supported) are added
/// unless the items set them.
public struct Advertising: Sendable {
    /// The advertising interval, 20 ms to 10.24 s (Vol 6, Part B, 4.4.2.2.1); each event also waits
    /// a random advDelay of 0–10 ms.
    public var interval: Duration
    /// Whether the advertisements are connectable (ADV_IND) or not (ADV_NONCONN_IND).
    public var isConnectable: Bool
    /// The advertisement the items describe, without RSSI.
    public var advertisement: Advertisement

    /// Declares how a peripheral advertises.
    ///
    /// - Parameters:
    ///   - interval: the advertising interval (100 ms by default).
    ///   - connectable: whether centrals may connect.
    ///   - items: the AD items: ``LocalName``, ``ServiceUUIDs``, ``ManufacturerData``, ``TxPower``,
    ///     ``ServiceData``, ``AdvertisedAppearance``, ``AdvertisingFlags``.
    public init(
        every interval: Duration = .milliseconds(100), connectable: Bool = true,
        @AdvertisingBuilder _ items: () -> [AdvertisingItem] = { [] }
    ) {
        self.interval = interval
        self.isConnectable = connectable
        var advertisement = Advertisement(isConnectable: connectable)
        var flagsSet = false
        for item in items() {
            switch item {
            case .flags(let flags):
                advertisement.flags = flags
                flagsSet = true
            case .localName(let name): advertisement.localName = name
            case .serviceUUIDs(let uuids, let incomplete):
                advertisement.serviceUUIDs += uuids
                advertisement.hasMoreServiceUUIDs = advertisement.hasMoreServiceUUIDs || incomplete
            case .manufacturerData(let data): advertisement.manufacturerData.append(data)
            case .serviceData(let data): advertisement.serviceData.append(data)
            case .txPower(let power): advertisement.txPowerLevel = power
            case .appearance(let appearance): advertisement.appearance = appearance
            }
        }
        if !flagsSet { advertisement.flags = .generalDiscoverableLEOnly }
        self.advertisement = advertisement
    }

    /// The advertising data bytes (AD structures), as they go on air.
    ///
    /// - Throws: ``AirlinkError/Code/invalidSpecification`` when an item cannot be encoded.
    public func advertisingData() throws(AirlinkError) -> [UInt8] {
        do {
            return try advertisement.advertisingData()
        } catch {
            throw AirlinkError(.invalidSpecification, error.message, cause: .underlying(error))
        }
    }
}

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

/// The Local Name AD item (Core Spec Supplement, Part A, 1.2).
public struct LocalName: Sendable, Hashable {
    /// The name and whether it is complete.
    public var name: Advertisement.LocalName
    /// Advertises `name`, complete unless `shortened`.
    public init(_ name: String, shortened: Bool = false) {
        self.name = Advertisement.LocalName(name, isComplete: !shortened)
    }
}

/// The Service UUIDs AD item (Core Spec Supplement, Part A, 1.1).
public struct ServiceUUIDs: Sendable, Hashable {
    /// The advertised UUIDs.
    public var uuids: [BluetoothUUID]
    /// Whether the list is incomplete (the device has more services).
    public var isIncomplete: Bool
    /// Advertises `uuids`, a complete list unless `incomplete`.
    public init(_ uuids: BluetoothUUID..., incomplete: Bool = false) {
        self.uuids = uuids
        self.isIncomplete = incomplete
    }
    /// Advertises the UUIDs of an array.
    public init(_ uuids: [BluetoothUUID], incomplete: Bool = false) {
        self.uuids = uuids
        self.isIncomplete = incomplete
    }
}

/// The Manufacturer Specific Data AD item (Core Spec Supplement, Part A, 1.4).
public struct ManufacturerData: Sendable, Hashable {
    /// The company identifier and data.
    public var data: Advertisement.ManufacturerData
    /// Advertises typed data under a company identifier.
    public init(company companyID: UInt16, _ value: some GATTValue) {
        data = Advertisement.ManufacturerData(companyID: companyID, data: value.gattBytes)
    }
}

/// The Service Data AD item (Core Spec Supplement, Part A, 1.11).
public struct ServiceData: Sendable, Hashable {
    /// The service UUID and data.
    public var data: Advertisement.ServiceData
    /// Advertises typed data for a service.
    public init(_ uuid: BluetoothUUID, _ value: some GATTValue) {
        data = Advertisement.ServiceData(uuid: uuid, data: value.gattBytes)
    }
}

/// The TX Power Level AD item, in dBm (Core Spec Supplement, Part A, 1.5).
public struct TxPower: Sendable, Hashable {
    /// The advertised level.
    public var dBm: Int8
    /// Advertises a TX power level.
    public init(_ dBm: Int8) { self.dBm = dBm }
}

/// The Appearance AD item (Core Spec Supplement, Part A, 1.12).
public struct AdvertisedAppearance: Sendable, Hashable {
    /// The appearance.
    public var appearance: Appearance
    /// Advertises an appearance.
    public init(_ appearance: Appearance) { self.appearance = appearance }
}

/// The Flags AD item (Core Spec Supplement, Part A, 1.3); by default LE General Discoverable, LE only.
public struct AdvertisingFlags: Sendable, Hashable {
    /// The flags.
    public var flags: Advertisement.Flags
    /// Advertises these flags instead of the default.
    public init(_ flags: Advertisement.Flags) { self.flags = flags }
}
