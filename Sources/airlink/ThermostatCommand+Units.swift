import AirlinkProfiles

extension ThermostatCommand {
    /// `75.00 °F`: degrees in `unit`, to the hundredth the thermostat carries.
    static func text(_ degrees: Double, _ unit: TemperatureUnit) -> String {
        ThermostatReading(temperature: Temperature(degrees: degrees), unit: unit).description
    }

    /// `41.00`: `celsius` converted to `unit`, to the hundredth, without the unit.
    static func number(_ celsius: Double, _ unit: TemperatureUnit) -> String {
        String(Temperature(degrees: unit.fromCelsius(celsius)).description.dropLast())
    }

    /// The reading in `unit`, whatever unit the thermostat reports in: a line speaks one unit.
    static func text(_ reading: ThermostatReading, in unit: TemperatureUnit) -> String {
        reading.unit == unit ? reading.description : text(unit.fromCelsius(reading.celsius), unit)
    }

    /// `set point 75.00 °F; temperature now 69.98 °F`: the set point and the temperature in the unit the
    /// set point was given in.
    static func setLine(_ degrees: Double, _ unit: TemperatureUnit, temperature: ThermostatReading) -> String {
        "set point \(text(degrees, unit)); temperature now \(text(temperature, in: unit))"
    }
}
