import AirlinkCore
import AirlinkTransportContract

/// What the fake BlueZ needs beside the contract's peripherals: their moved database as its objects, and the RSSI
/// it reports.
extension ContractPeripherals {
    /// ``movedThermostat`` as the fake BlueZ's objects: the thermostat's services from handle 0x0020 on
    /// (temperature value 0x0022, unit 0x0026, battery level 0x0029).
    static let movedThermostatJSON = #"""
        [{"uuid": "68753A44-4D6F-1226-9C60-0050E4C00066", "handle": 32, "characteristics": [
            {"uuid": "68753A44-4D6F-1226-9C60-0050E4C00067", "flags": ["read", "write", "notify"], "value": "6608",
             "descriptors": [{"uuid": "2901", "flags": ["read"], "value": "54656d7065726174757265"}]},
            {"uuid": "68753A44-4D6F-1226-9C60-0050E4C00068", "flags": ["read", "write-without-response", "write"],
             "value": "00"}]},
         {"uuid": "68753A44-4D6F-1226-9C60-0050E4C00070", "characteristics": [
            {"uuid": "68753A44-4D6F-1226-9C60-0050E4C00069", "flags": ["read", "notify"], "value": "57"}]}]
        """#

    /// The RSSI the fake BlueZ reports for each.
    static let rssi: [DeviceID: Int] = [thermostat.id: -52, battery.id: -67]
}
