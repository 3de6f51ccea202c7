import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import Testing

/// The contract's two reference peripherals, as specs: the virtual radio runs them, and the fake
/// BlueZ's thermostat.json and battery.json are exported from them (`FixtureExportTests` keeps the
/// files and the specs equal), so both transports are tested on the same devices.
///
/// They are fixed on purpose (the built-in simulated peripherals have behaviour the contract must not
/// depend on, such as a temperature that moves toward its set point). Their Generic Attribute service serves
/// Service Changed only: the fake BlueZ hides 0x1801 as bluetoothd does (it serves its own), and the handles the
/// contract names stay those of a table without Client Supported Features and Database Hash.
public enum ContractPeripherals {
    /// The thermostat: 21.50 °C, unit Celsius (also writable without response), battery 87 %,
    /// manufacturer data 0xFFFF → A1 B2, TX power 4 dBm, MTU 247. It advertises no name: with its
    /// 128-bit service UUID, a name would not fit the 31 bytes of a legacy advertisement.
    public static let thermostat = PeripheralSpec(name: "Thermostat", id: "C0:FF:EE:00:00:01", preferredMTU: 247) {
        Advertising(every: .milliseconds(100)) {
            ServiceUUIDs(.thermostatTemperatureService)
            ManufacturerData(company: 0xFFFF, [UInt8]([0xA1, 0xB2]))
            TxPower(4)
        }
        Service(.thermostatTemperatureService) {
            Characteristic(.thermostatTemperature, properties: [.read, .write, .notify], value: Int16(2150))
                .userDescription("Temperature")
            Characteristic(.thermostatUnit, properties: [.read, .write, .writeWithoutResponse], value: UInt8(0))
        }
        Service(.thermostatBatteryService) {
            Characteristic(.thermostatBatteryLevel, properties: [.read, .notify], value: UInt8(87))
        }
    }.with(genericAttribute: .serviceChanged)

    /// The battery peripheral: level 87 % (also as service data), Device Information "Airlink" / "B-1".
    public static let battery = PeripheralSpec(name: "Battery", id: "F4:77:E2:00:00:02/random", preferredMTU: 23) {
        Advertising(every: .milliseconds(100)) {
            LocalName("Battery")
            ServiceUUIDs(.battery)
            ServiceData(.battery, UInt8(87))
        }
        Service(.battery) {
            Characteristic(.batteryLevel, properties: [.read, .notify], value: UInt8(87))
        }
        Service(.deviceInformation) {
            Characteristic(.manufacturerNameString, properties: [.read], value: "Airlink")
            Characteristic(.modelNumberString, properties: [.read], value: "B-1")
        }
    }.with(genericAttribute: .serviceChanged)

    /// The thermostat after a firmware update: a vendor service placed before its own, so that every handle of
    /// the temperature and battery services moves on, with the same values.
    public static let movedThermostat: [Service] =
        [
            Service(BluetoothUUID(0xFFF0)) {
                Characteristic(BluetoothUUID(0xFFF1), properties: [.read], value: UInt8(1))
                Characteristic(BluetoothUUID(0xFFF2), properties: [.read], value: UInt8(2))
            }
        ] + thermostat.services

    /// The UUID of the characteristic whose value is at `valueHandle` on `device` (its handles are those
    /// the virtual radio's attribute table gives the spec).
    public static func characteristic(_ device: DeviceID, valueHandle: ATTHandle) throws -> BluetoothUUID {
        let spec = try #require([thermostat, battery].first { $0.id == device })
        return try #require(try AttributeDatabase(spec.gattDefinition)[valueHandle]?.type)
    }
}
