import AirlinkCore

extension SimulatedWorld {
    /// The built-in world `airlink scan` and `TransportSelector().open("sim")` show: a thermostat 2 m away
    /// (`C0:FF:EE:00:00:01`), a battery sensor 5 m away (`B4:77:E2:00:00:02`) and a TI SensorTag 8 m away
    /// (`PeripheralSpec.sensorTagID`, `BC:6A:29:00:00:03`).
    ///
    /// Each notifies a subscriber on its defaults: the thermostat's room temperature drifts by up to 0.05 °C a
    /// second around its set point (seeded; a new value within a few seconds), the battery drains 1 % a minute
    /// (first value at 60 s), the SensorTag's keys are pressed at 5, 15, 40 and 70 s of each two-minute cycle
    /// (its sensors stay off until configured, as on the device). Docs/SimulatedPeripherals.md has the details.
    public static var builtIn: SimulatedWorld {
        SimulatedWorld([
            .thermostat(drift: 0.05, position: .metres(2)),
            .battery(position: .metres(5)),
            .sensorTag(position: .metres(8)),
        ])
    }
}
