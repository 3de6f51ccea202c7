import AirlinkCore

extension PeripheralSpec {
    /// A battery-powered sensor with the SIG Battery Service 1.0 and Device Information.
    ///
    /// Battery Service (0x180F): Battery Level (0x2A19, read, notify, one byte 0–100 %), draining 1 %
    /// every `drainEvery` of virtual time and notifying each step. Device Information (0x180A): see
    /// ``DeviceInformation``. Advertises every 100 ms as "Battery" with service 0x180F.
    ///
    /// - Parameters:
    ///   - level: the initial charge.
    ///   - drainEvery: how often the level drops by 1 %.
    ///   - id: the address.
    ///   - position: where it stands.
    public static func battery(
        level: UInt8 = 87, drainEvery: Duration = .seconds(60), id: DeviceID = "B4:77:E2:00:00:02",
        position: Position = .metres(5)
    ) -> PeripheralSpec {
        PeripheralSpec(name: "Battery", id: id, appearance: Appearance(0x0C80), position: position) {
            Advertising(every: .milliseconds(100)) {
                LocalName("Battery")
                ServiceUUIDs(.battery, .deviceInformation)
                TxPower(0)
            }
            Service(.battery) {
                Characteristic(.batteryLevel, properties: [.read, .notify], value: BatteryLevel(level))
                    .userDescription("Battery Level")
                    .updates(every: drainEvery) { $0.drained(by: 1) }
            }
            Service.deviceInformation(.airlinkSensor)
        }
    }
}
