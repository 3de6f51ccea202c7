import AirlinkCore

/// A temperature the thermostat reported, with the unit it was in.
public struct ThermostatReading: Sendable, Hashable, CustomStringConvertible {
    /// The characteristic's value as sent, in hundredths of a degree of ``unit``.
    public var temperature: Temperature
    /// The unit characteristic's value when the temperature was read: the unit of ``temperature``.
    public var unit: TemperatureUnit

    /// Creates a reading.
    public init(temperature: Temperature, unit: TemperatureUnit) {
        self.temperature = temperature
        self.unit = unit
    }

    /// The degrees, in ``unit``.
    public var degrees: Double { temperature.degrees }

    /// ``degrees`` converted to Celsius (unchanged when ``unit`` is Celsius).
    public var celsius: Double { unit.toCelsius(temperature.degrees) }

    /// `21.50 °C`.
    public var description: String { "\(temperature.description.dropLast()) \(unit)" }
}
