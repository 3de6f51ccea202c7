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
/// A scan response carries what does not fit, as real devices do; an active scanner asks for it
/// after each advertising event it hears (Core Spec Vol 6, Part B, 4.4.2.3), a passive one never:
///
/// ```swift
/// Advertising(every: .milliseconds(100)) {
///     LocalName("Thermost", shortened: true)
///     ServiceUUIDs(.thermostatTemperatureService)
/// } scanResponse: {
///     LocalName("Thermostat")
/// }
/// ```
///
/// Each payload must fit the 31 bytes of a legacy advertisement; a longer one is rejected
/// when the simulation is built. Flags (LE General Discoverable, BR/EDR not supported) are added
/// to the advertising data unless the items set them; a scan response carries no flags.
public struct Advertising: Sendable {
    /// The advertising interval, 20 ms to 10.24 s (Vol 6, Part B, 4.4.2.2.1); each event also waits
    /// a random advDelay of 0–10 ms.
    public var interval: Duration
    /// Whether the advertisements are connectable (ADV_IND) or not (ADV_NONCONN_IND).
    public var isConnectable: Bool
    /// The advertisement the items describe, without RSSI.
    public var advertisement: Advertisement
    /// The scan response the peripheral answers active scanners with, or `nil` if it sends none
    /// (``Advertisement/isScanResponse`` set).
    public var scanResponse: Advertisement?

    /// Declares how a peripheral advertises.
    ///
    /// - Parameters:
    ///   - interval: the advertising interval (100 ms by default).
    ///   - connectable: whether centrals may connect.
    ///   - items: the AD items: ``LocalName``, ``ServiceUUIDs``, ``ManufacturerData``, ``TxPower``,
    ///     ``ServiceData``, ``AdvertisedAppearance``, ``AdvertisingFlags``.
    ///   - scanResponse: the items of the scan response (none by default: no scan response).
    public init(
        every interval: Duration = .milliseconds(100), connectable: Bool = true,
        @AdvertisingBuilder _ items: () -> [AdvertisingItem] = { [] },
        @AdvertisingBuilder scanResponse: () -> [AdvertisingItem] = { [] }
    ) {
        self.interval = interval
        self.isConnectable = connectable
        let (advertisement, flagsSet) = Self.advertisement(items(), connectable: connectable)
        self.advertisement = advertisement
        if !flagsSet { self.advertisement.flags = .generalDiscoverableLEOnly }
        let response = scanResponse()
        if !response.isEmpty {
            var scanResponse = Self.advertisement(response, connectable: connectable).advertisement
            scanResponse.isScanResponse = true
            self.scanResponse = scanResponse
        }
    }

    /// The advertisement `items` describe, and whether they set the flags.
    private static func advertisement(
        _ items: [AdvertisingItem], connectable: Bool
    ) -> (advertisement: Advertisement, flagsSet: Bool) {
        var advertisement = Advertisement(isConnectable: connectable)
        var flagsSet = false
        for item in items {
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
        return (advertisement, flagsSet)
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

    /// The scan response's bytes (AD structures), empty when there is none.
    ///
    /// - Throws: ``AirlinkError/Code/invalidSpecification`` when an item cannot be encoded.
    public func scanResponseData() throws(AirlinkError) -> [UInt8] {
        guard let scanResponse else { return [] }
        do {
            return try scanResponse.advertisingData()
        } catch {
            throw AirlinkError(.invalidSpecification, error.message, cause: .underlying(error))
        }
    }
}
