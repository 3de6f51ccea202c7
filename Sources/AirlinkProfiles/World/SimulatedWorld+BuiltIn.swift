import AirlinkCore

extension SimulatedWorld {
    /// The built-in world `airlink scan` shows: a thermostat 2 m away and a battery sensor 5 m away.
    ///
    /// The SensorTag joins here (a third entry, at its own distance) once its simulated peripheral lands.
    public static var builtIn: SimulatedWorld {
        SimulatedWorld([
            .thermostat(position: .metres(2)),
            .battery(position: .metres(5)),
            // SensorTag: add `.sensorTag(position: .metres(8))` here.
        ])
    }
}
