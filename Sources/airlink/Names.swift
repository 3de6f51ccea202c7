import AirlinkCore
import AirlinkProfiles

/// Names for UUIDs in output: the assigned numbers, and the built-in world's vendor UUIDs.
enum Names {
    private static let vendor: [BluetoothUUID: String] = [
        .thermostatTemperatureService: "Thermostat Temperature Service",
        .thermostatTemperature: "Thermostat Temperature",
        .thermostatUnit: "Thermostat Unit",
        .thermostatBatteryService: "Thermostat Battery Service",
        .thermostatBatteryLevel: "Thermostat Battery Level",
    ]

    /// The UUID's name, or `unknown`.
    static func name(_ uuid: BluetoothUUID) -> String { uuid.name ?? vendor[uuid] ?? "unknown" }

    /// `UUID (Name)`.
    static func labelled(_ uuid: BluetoothUUID) -> String { "\(uuid) (\(name(uuid)))" }
}
