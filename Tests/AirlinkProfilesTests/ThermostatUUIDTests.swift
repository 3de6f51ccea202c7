import AirlinkCore
import Testing

@testable import AirlinkProfiles

@Suite struct ThermostatUUIDTests {
    @Test func vendorUUIDsMatchTheOriginalThermostat() throws {
        #expect(
            BluetoothUUID.thermostatTemperatureService
                == (try BluetoothUUID(parsing: "68753A44-4D6F-1226-9C60-0050E4C00066")))
        #expect(BluetoothUUID.thermostatBatteryLevel.description == "68753A44-4D6F-1226-9C60-0050E4C00069")
        #expect(BluetoothUUID.thermostatUnit.uint16 == nil)
    }
}
