/// What a device advertises: the AD structures Airlink models, any others kept raw, and what the
/// receiver observed (connectable or not, RSSI).
///
/// ``advertisingData()`` encodes the AD structures (Core Spec Vol 3, Part C, 11; formats in the Core
/// Specification Supplement, Part A); ``init(decoding:isConnectable:rssi:)`` decodes them. Decoding
/// then encoding gives the canonical form of the data: structures in a fixed order, each service UUID
/// in the list of its shortest form.
///
/// ```swift
/// let ad = Advertisement(
///     flags: .generalDiscoverableLEOnly, localName: "Thermo", serviceUUIDs: [.environmentalSensing]
/// )
/// let bytes = try ad.advertisingData()  // 02 01 06  03 03 1A 18  07 09 54 68 65 72 6D 6F
/// ```
public struct Advertisement: Hashable, Sendable, Codable {
    /// The Flags: discoverable mode and BR/EDR support (CSS Part A, 1.3); `nil` when not advertised.
    public var flags: Flags?
    /// The local name and whether it is complete or shortened (CSS Part A, 1.2).
    public var localName: LocalName?
    /// The service UUIDs advertised, of any size (CSS Part A, 1.1).
    public var serviceUUIDs: [BluetoothUUID]
    /// Whether the device has services beyond ``serviceUUIDs``: encoded with the Incomplete List AD types
    /// when `true`, the Complete List ones when `false`. Decoding sets it if any list is incomplete.
    public var hasMoreServiceUUIDs: Bool
    /// Manufacturer specific data, one entry per AD structure, in order (CSS Part A, 1.4).
    public var manufacturerData: [ManufacturerData]
    /// Service data, one entry per AD structure, in order (CSS Part A, 1.11).
    public var serviceData: [ServiceData]
    /// The transmit power level in dBm (CSS Part A, 1.5).
    public var txPowerLevel: Int8?
    /// The device's appearance (CSS Part A, 1.12).
    public var appearance: Appearance?
    /// AD structures Airlink does not model, kept as received and encoded after the others.
    public var otherStructures: [ADStructure]
    /// Whether the advertising PDU accepts connections (`ADV_IND`, connectable extended advertising);
    /// observed by the receiver, not an AD structure.
    public var isConnectable: Bool
    /// The received signal strength in dBm, or `nil` when not received over the air (a specification).
    public var rssi: Int8?
    /// Whether the data came in a scan response (`SCAN_RSP`, Core Spec Vol 6, Part B, 2.3.2.2), the
    /// answer to an active scanner's request, rather than in the advertising PDU; observed by the
    /// receiver, not encoded. A transport that merges the two itself (BlueZ) never sets it; the discovery
    /// layer merges the ones that do (``merged(withScanResponse:)``).
    public var isScanResponse = false

    private enum CodingKeys: String, CodingKey {
        case flags, localName, serviceUUIDs, hasMoreServiceUUIDs, manufacturerData, serviceData, txPowerLevel
        case appearance, otherStructures, isConnectable, rssi
    }

    /// Creates an advertisement.
    ///
    /// - Parameters:
    ///   - flags: the Flags, or `nil` to leave them out.
    ///   - localName: the local name, complete or shortened; a string literal is a complete name.
    ///   - serviceUUIDs: the service UUIDs, of any size.
    ///   - hasMoreServiceUUIDs: whether the device has services not listed.
    ///   - manufacturerData: manufacturer specific data, one entry per AD structure.
    ///   - serviceData: service data, one entry per AD structure.
    ///   - txPowerLevel: the transmit power level in dBm.
    ///   - appearance: the device's appearance.
    ///   - otherStructures: further AD structures, encoded as they are.
    ///   - isConnectable: whether the advertising accepts connections.
    ///   - rssi: the received signal strength in dBm, if received.
    public init(
        flags: Flags? = nil,
        localName: LocalName? = nil,
        serviceUUIDs: [BluetoothUUID] = [],
        hasMoreServiceUUIDs: Bool = false,
        manufacturerData: [ManufacturerData] = [],
        serviceData: [ServiceData] = [],
        txPowerLevel: Int8? = nil,
        appearance: Appearance? = nil,
        otherStructures: [ADStructure] = [],
        isConnectable: Bool = true,
        rssi: Int8? = nil
    ) {
        self.flags = flags
        self.localName = localName
        self.serviceUUIDs = serviceUUIDs
        self.hasMoreServiceUUIDs = hasMoreServiceUUIDs
        self.manufacturerData = manufacturerData
        self.serviceData = serviceData
        self.txPowerLevel = txPowerLevel
        self.appearance = appearance
        self.otherStructures = otherStructures
        self.isConnectable = isConnectable
        self.rssi = rssi
    }

    /// The local name's text, complete or shortened, or `nil` when none is advertised.
    public var name: String? { localName?.name }

    /// The data of the first manufacturer specific data entry from a company, or `nil`.
    ///
    /// - Parameter companyID: the company identifier (Bluetooth Assigned Numbers, Company Identifiers).
    public func manufacturerData(for companyID: UInt16) -> [UInt8]? {
        manufacturerData.first { $0.companyID == companyID }?.data
    }

    /// The data of the first service data entry for a service, or `nil`.
    ///
    /// - Parameter uuid: the service's UUID.
    public func serviceData(for uuid: BluetoothUUID) -> [UInt8]? {
        serviceData.first { $0.uuid == uuid }?.data
    }
}
