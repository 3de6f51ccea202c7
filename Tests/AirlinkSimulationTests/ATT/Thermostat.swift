import AirlinkCore
import AirlinkSimulation

/// A small thermostat-like database used across the ATT tests.
///
/// Its Generic Attribute service serves Service Changed only, so the handles stay those the tests name:
/// 1–5 Generic Access, 6–9 Generic Attribute (Service Changed value 8, CCCD 9),
/// 10–20 Thermostat (include 11; temperature 12/13/14; target 15/16 + user description 17; mode 18/19/20),
/// 21–24 Battery (level 22/23/24).
enum Thermostat {
    static let service = BluetoothUUID(value: 0x6E40_0001_B5A3_F393_E0A9_E50E_24DC_CA9E)
    static let target = BluetoothUUID(value: 0x6E40_0002_B5A3_F393_E0A9_E50E_24DC_CA9E)
    static let mode = BluetoothUUID(value: 0x6E40_0003_B5A3_F393_E0A9_E50E_24DC_CA9E)
    static let temperature = BluetoothUUID(0x2A6E)
    static let battery = BluetoothUUID(0x180F)
    static let batteryLevel = BluetoothUUID(0x2A19)

    static let temperatureHandle = ATTHandle(13)
    static let targetHandle = ATTHandle(16)
    static let modeHandle = ATTHandle(19)
    static let batteryLevelHandle = ATTHandle(23)

    static func definition(batteryExtras: [GATTServerDefinition.Characteristic] = []) -> GATTServerDefinition {
        GATTServerDefinition(
            deviceName: "Thermostat", appearance: 0x0300,
            services: [
                .init(
                    service, includes: [battery],
                    characteristics: [
                        .init(temperature, properties: [.read, .notify], value: [0x2C, 0x08]),
                        .init(
                            target, properties: [.read, .write], value: [0xD0, 0x07],
                            descriptors: [.userDescription("Target")]),
                        .init(mode, properties: [.read, .write, .indicate], value: [0x01]),
                    ]),
                .init(
                    battery,
                    characteristics: [.init(batteryLevel, properties: [.read, .notify], value: [87])] + batteryExtras),
            ], genericAttribute: .serviceChanged)
    }

    static func database() throws -> AttributeDatabase { try AttributeDatabase(definition()) }

    static func server(mtu: UInt16 = 517) throws -> ATTServer {
        ATTServer(database: try database(), preferredMTU: mtu)
    }
}
