import AirlinkCore

/// A temperature the thermostat reported, with the unit it was in.
public struct ThermostatReading: Sendable, Hashable, CustomStringConvertible {
    /// The value as sent.
    public var temperature: Temperature
    /// The unit the thermostat was set to.
    public var unit: TemperatureUnit

    /// Creates a reading.
    public init(temperature: Temperature, unit: TemperatureUnit) {
        self.temperature = temperature
        self.unit = unit
    }

    /// The degrees, in ``unit``.
    public var degrees: Double { temperature.degrees }

    /// The temperature in degrees Celsius.
    public var celsius: Double { unit.toCelsius(temperature.degrees) }

    /// `21.50 °C`.
    public var description: String { "\(temperature.description.dropLast()) \(unit)" }
}
