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
