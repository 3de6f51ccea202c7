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
    /// The service UUIDs advertised, in order; each in the list of its shortest form.
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
    /// The transmit power level advertised, in dBm (-127 to 127).
    public var dBm: Int8
    /// Advertises a TX power level.
    public init(_ dBm: Int8) { self.dBm = dBm }
}

/// The Appearance AD item (Core Spec Supplement, Part A, 1.12).
public struct AdvertisedAppearance: Sendable, Hashable {
    /// The external appearance advertised (a category and subcategory from Assigned Numbers).
    public var appearance: Appearance
    /// Advertises an appearance.
    public init(_ appearance: Appearance) { self.appearance = appearance }
}

/// The Flags AD item (Core Spec Supplement, Part A, 1.3); by default LE General Discoverable, LE only.
public struct AdvertisingFlags: Sendable, Hashable {
    /// The discoverable mode and BR/EDR support advertised.
    public var flags: Advertisement.Flags
    /// Advertises these flags instead of the default.
    public init(_ flags: Advertisement.Flags) { self.flags = flags }
}
