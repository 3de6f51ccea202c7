import AirlinkCore
import AirlinkProfiles

/// Names for vendor UUIDs the SIG's lists cannot know: the built-in world's thermostat, TI's SensorTag
/// (Docs/SensorTag.md), and TI's base UUID, `F000xxxx-0451-4000-B000-000000000000`, for the rest of TI's.
enum VendorNames {
    /// The UUIDs of the devices Airlink simulates, by name.
    static let builtIn: [BluetoothUUID: String] = {
        var names: [BluetoothUUID: String] = [
            .thermostatTemperatureService: "Thermostat Temperature Service",
            .thermostatTemperature: "Thermostat Temperature",
            .thermostatUnit: "Thermostat Unit",
            .thermostatBatteryService: "Thermostat Battery Service",
            .thermostatBatteryLevel: "Thermostat Battery Level",
            .sensorTagSimpleKeysService: "SensorTag Simple Keys Service",
            .sensorTagSimpleKeysData: "SensorTag Key Press State",
        ]
        // Each sensor: service xx0, data xx1, configuration xx2, period xx3 (the barometer's calibration
        // is xx3 and its period xx4; the test service has no period).
        let sensors: [(UInt16, String, [String])] = [
            (0xAA00, "IR Temperature", ["Data", "Configuration", "Period"]),
            (0xAA10, "Accelerometer", ["Data", "Configuration", "Period"]),
            (0xAA20, "Humidity", ["Data", "Configuration", "Period"]),
            (0xAA30, "Magnetometer", ["Data", "Configuration", "Period"]),
            (0xAA40, "Barometer", ["Data", "Configuration", "Calibration", "Period"]),
            (0xAA50, "Gyroscope", ["Data", "Configuration", "Period"]),
            (0xAA60, "Test", ["Data", "Configuration"]),
        ]
        for (service, sensor, characteristics) in sensors {
            names[.ti(service)] = "SensorTag \(sensor) Service"
            for (offset, characteristic) in characteristics.enumerated() {
                names[.ti(service + UInt16(offset + 1))] = "SensorTag \(sensor) \(characteristic)"
            }
        }
        return names
    }()

    /// `Texas Instruments F000AA70` for a UUID on TI's base that no table names, or `nil`.
    static func base(of uuid: BluetoothUUID) -> String? {
        uuid.tiShort.map { short in
            let hex = String(short, radix: 16, uppercase: true)
            return "Texas Instruments F000" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
