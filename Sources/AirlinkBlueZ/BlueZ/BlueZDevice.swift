import AirlinkCore

/// A typed view of an `org.bluez.Device1` object's properties (BlueZ doc/org.bluez.Device.rst).
///
/// Properties of an unexpected type read as absent: BlueZ versions differ, and a bad value must not
/// take the transport down.
package struct BlueZDevice: Sendable {
    package var path: String
    package var properties: BlueZObjectTree.Properties

    package init(path: String, properties: BlueZObjectTree.Properties) {
        self.path = path
        self.properties = properties
    }

    package var address: BDAddress? { properties["Address"]?.string.flatMap { BDAddress($0) } }
    package var addressType: AddressType { properties["AddressType"]?.string == "random" ? .random : .public }
    package var name: String? { properties["Name"]?.string }
    package var alias: String? { properties["Alias"]?.string }
    package var rssi: Int? { properties["RSSI"]?.integer }
    package var txPower: Int? { properties["TxPower"]?.integer }
    package var isConnected: Bool { properties["Connected"]?.bool ?? false }
    package var servicesResolved: Bool { properties["ServicesResolved"]?.bool ?? false }
    package var isPaired: Bool { properties["Paired"]?.bool ?? false }

    /// The service UUIDs BlueZ lists (advertised, and resolved ones once connected).
    package var uuids: [BluetoothUUID] {
        // try?: a UUID BlueZ spells in a way Airlink cannot read is left out; the device's other UUIDs still count
        (properties["UUIDs"]?.strings ?? []).compactMap { try? BluetoothUUID(parsing: $0) }
    }

    /// `ManufacturerData`, `a{qv}` with `ay` values, in company order.
    package var manufacturerData: [Advertisement.ManufacturerData] {
        (properties["ManufacturerData"]?.entries ?? []).compactMap { entry in
            guard case .uint16(let company) = entry.key, let data = entry.value.bytes else { return nil }
            return Advertisement.ManufacturerData(companyID: company, data: data)
        }.sorted { $0.companyID < $1.companyID }
    }

    /// `ServiceData`, `a{sv}` with `ay` values, in UUID order.
    package var serviceData: [Advertisement.ServiceData] {
        (properties["ServiceData"]?.entries ?? []).compactMap { entry in
            // try?: an entry under a UUID Airlink cannot read is left out; the other service data still counts
            guard let text = entry.key.string, let uuid = try? BluetoothUUID(parsing: text),
                let data = entry.value.bytes
            else { return nil }
            return Advertisement.ServiceData(uuid: uuid, data: data)
        }.sorted { $0.uuid < $1.uuid }
    }

    /// The device's identity: its address and address type.
    package var deviceID: DeviceID? { address.map { DeviceID($0, type: addressType) } }

    /// What the device advertised, as far as BlueZ reports it. BlueZ does not say whether the
    /// advertising was connectable; BlueZ lists only devices it may connect to, so it is `true`.
    package var advertisement: Advertisement {
        Advertisement(
            localName: name.map { .complete($0) },
            serviceUUIDs: uuids,
            manufacturerData: manufacturerData,
            serviceData: serviceData,
            txPowerLevel: txPower.flatMap { Int8(exactly: $0) },
            isConnectable: true,
            rssi: rssi.flatMap { Int8(exactly: $0) })
    }

    /// The properties whose change means BlueZ received an advertisement.
    package static let advertisingProperties: Set<String> = [
        "RSSI", "ManufacturerData", "ServiceData", "Name", "UUIDs", "TxPower",
    ]
}
