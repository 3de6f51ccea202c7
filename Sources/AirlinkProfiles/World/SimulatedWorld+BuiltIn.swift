import AirlinkCore

extension SimulatedWorld {
    /// The built-in world `airlink scan` shows: a thermostat 2 m away (`C0:FF:EE:00:00:01`), a battery
    /// sensor 5 m away (`B4:77:E2:00:00:02`) and a TI SensorTag 8 m away
    /// (`PeripheralSpec.sensorTagID`, `BC:6A:29:00:00:03`).
    public static var builtIn: SimulatedWorld {
        SimulatedWorld([
            .thermostat(position: .metres(2)),
            .battery(position: .metres(5)),
            .sensorTag(position: .metres(8)),
        ])
    }
}
