import AirlinkCore

/// The thermostat's vendor UUIDs, as WLXBluetoothDevice's example thermostat defined them.
extension BluetoothUUID {
    /// The thermostat's Temperature service, 68753A44-4D6F-1226-9C60-0050E4C00066.
    public static let thermostatTemperatureService = BluetoothUUID(value: 0x6875_3A44_4D6F_1226_9C60_0050_E4C0_0066)
    /// The temperature characteristic (read, write, notify), 68753A44-4D6F-1226-9C60-0050E4C00067.
    public static let thermostatTemperature = BluetoothUUID(value: 0x6875_3A44_4D6F_1226_9C60_0050_E4C0_0067)
    /// The unit characteristic (read, write: Celsius or Fahrenheit), 68753A44-4D6F-1226-9C60-0050E4C00068.
    public static let thermostatUnit = BluetoothUUID(value: 0x6875_3A44_4D6F_1226_9C60_0050_E4C0_0068)
    /// The thermostat's own Battery service, 68753A44-4D6F-1226-9C60-0050E4C00070.
    public static let thermostatBatteryService = BluetoothUUID(value: 0x6875_3A44_4D6F_1226_9C60_0050_E4C0_0070)
    /// The thermostat's battery level (read, notify), 68753A44-4D6F-1226-9C60-0050E4C00069.
    public static let thermostatBatteryLevel = BluetoothUUID(value: 0x6875_3A44_4D6F_1226_9C60_0050_E4C0_0069)
}
