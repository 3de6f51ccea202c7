import AirlinkCore

/// The thermostat's unit: one byte, 0 Celsius, 1 Fahrenheit. (The original sent an `NSUInteger`.)
public enum TemperatureUnit: UInt8, GATTValue, Hashable, CaseIterable, CustomStringConvertible {
    /// Degrees Celsius.
    case celsius = 0
    /// Degrees Fahrenheit.
    case fahrenheit = 1

    /// Decodes one byte.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for another length or a byte other than 0 or 1.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try Self.requireLength(gattBytes, 1...1)
        guard let unit = TemperatureUnit(rawValue: gattBytes[0]) else {
            throw AirlinkError(
                .malformedData, "TemperatureUnit is 0 (Celsius) or 1 (Fahrenheit), not \(gattBytes[0]) (offset 0)")
        }
        self = unit
    }

    /// `[rawValue]`: 0 Celsius, 1 Fahrenheit.
    public var gattBytes: [UInt8] { [rawValue] }

    /// Degrees in this unit for a temperature in Celsius.
    public func fromCelsius(_ celsius: Double) -> Double { self == .celsius ? celsius : celsius * 9 / 5 + 32 }

    /// Degrees Celsius for a temperature in this unit.
    public func toCelsius(_ degrees: Double) -> Double { self == .celsius ? degrees : (degrees - 32) * 5 / 9 }

    /// `°C` or `°F`.
    public var description: String { self == .celsius ? "°C" : "°F" }
}
