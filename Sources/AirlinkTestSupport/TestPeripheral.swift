import AirlinkCore

/// A peripheral the tests script: identity, advertisement, GATT database and link behaviour.
///
/// Described as data (a `GATTServerDefinition`), so that the same description can later be
/// handed to the virtual radio.
package struct TestPeripheral: Sendable {
    package var id: DeviceID
    package var advertisement: Advertisement
    package var gatt: GATTServerDefinition
    package var rssi: Int = -60
    package var mtu: Int = 23
    /// How long a connection takes to establish.
    package var connectLatency: Duration = .milliseconds(30)

    /// A peripheral with these properties; `rssi` is in dBm, `mtu` the ATT MTU it agrees to.
    package init(
        id: DeviceID, advertisement: Advertisement, gatt: GATTServerDefinition, rssi: Int = -60, mtu: Int = 23,
        connectLatency: Duration = .milliseconds(30)
    ) {
        self.id = id
        self.advertisement = advertisement
        self.gatt = gatt
        self.rssi = rssi
        self.mtu = mtu
        self.connectLatency = connectLatency
    }
}

/// UUIDs of the test thermostat (WLXBluetoothDevice's example device).
package enum Thermostat {
    package static let service = BluetoothUUID(value: 0x6875_3A44_4D6F_1226_9C60_0050_E4C0_0066)
    package static let temperature = BluetoothUUID(value: 0x6875_3A44_4D6F_1226_9C60_0050_E4C0_0067)
    package static let unit = BluetoothUUID(value: 0x6875_3A44_4D6F_1226_9C60_0050_E4C0_0068)
    package static let control = BluetoothUUID(value: 0x6875_3A44_4D6F_1226_9C60_0050_E4C0_0071)
    package static let alarm = BluetoothUUID(value: 0x6875_3A44_4D6F_1226_9C60_0050_E4C0_0072)
    package static let firmware = BluetoothUUID(value: 0x6875_3A44_4D6F_1226_9C60_0050_E4C0_0073)
    package static let locked = BluetoothUUID(value: 0x6875_3A44_4D6F_1226_9C60_0050_E4C0_0074)
}

extension TestPeripheral {
    /// A thermostat: temperature (read, write, notify; user description), unit (read, write),
    /// control (write without response), alarm (indicate only), firmware (read only), locked
    /// (declares write but the server refuses it), and a Battery service (level: read, notify).
    package static func thermostat(id: DeviceID = "C0:FF:EE:00:00:01", name: String = "Thermostat") -> TestPeripheral {
        let gatt = GATTServerDefinition(
            deviceName: name,
            services: [
                .init(
                    Thermostat.service,
                    characteristics: [
                        .init(
                            Thermostat.temperature, properties: [.read, .write, .notify], value: [0xD2, 0x00],
                            descriptors: [.userDescription("Temperature")]),
                        .init(Thermostat.unit, properties: [.read, .write], value: [0x00]),
                        .init(Thermostat.control, properties: [.writeWithoutResponse], value: [0x00]),
                        .init(Thermostat.alarm, properties: [.indicate], value: [0x00]),
                        .init(Thermostat.firmware, properties: [.read], value: Array("1.0.3".utf8)),
                        .init(Thermostat.locked, properties: [.read, .write], permissions: .readable, value: [0x01]),
                    ]),
                .init(.battery, characteristics: [.init(.batteryLevel, properties: [.read, .notify], value: [87])]),
            ])
        return TestPeripheral(
            id: id,
            advertisement: Advertisement(
                flags: .generalDiscoverableLEOnly, localName: .init(name), serviceUUIDs: [Thermostat.service]),
            gatt: gatt)
    }

    /// A tracker that advertises a name and the Battery service.
    package static func tracker(_ name: String, id: DeviceID, rssi: Int = -70) -> TestPeripheral {
        TestPeripheral(
            id: id,
            advertisement: Advertisement(
                flags: .generalDiscoverableLEOnly, localName: .init(name), serviceUUIDs: [.battery]),
            gatt: GATTServerDefinition(
                deviceName: name,
                services: [
                    .init(.battery, characteristics: [.init(.batteryLevel, properties: [.read, .notify], value: [50])])
                ]),
            rssi: rssi)
    }
}
