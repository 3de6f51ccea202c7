import AirlinkCore

/// The thermostat's temperature: a signed 16-bit little-endian count of 0.01 degrees, in the unit
/// the thermostat's unit characteristic selects (``TemperatureUnit``).
///
/// Byte layout: `[low, high]` of an `Int16`; −327.68 to 327.67 degrees. (WLXBluetoothDevice's original
/// sent a native `CGFloat`; Airlink fixes the width and byte order.)
public struct Temperature: GATTValue, Hashable, Comparable, CustomStringConvertible {
    /// Hundredths of a degree.
    public let hundredths: Int16

    /// A temperature from hundredths of a degree.
    public init(hundredths: Int16) { self.hundredths = hundredths }

    /// A temperature in degrees, rounded to 0.01 and clamped to the range an `Int16` of hundredths holds.
    public init(degrees: Double) {
        let scaled = (degrees * 100).rounded()
        hundredths = Int16(clamping: Int(scaled.isFinite ? max(min(scaled, 32_767), -32_768) : 0))
    }

    /// A temperature in degrees within −273.15 (absolute zero, in Celsius) and 327.67.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` outside that range.
    public init(checkingDegrees degrees: Double) throws(AirlinkError) {
        guard degrees.isFinite, degrees >= -273.15, degrees <= 327.67 else {
            throw AirlinkError(.invalidArgument, "a temperature is −273.15 to 327.67 degrees, not \(degrees)")
        }
        self.init(degrees: degrees)
    }

    /// Decodes two bytes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for another length.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        hundredths = try Int16(gattBytes: gattBytes)
    }

    /// `[low, high]` of ``hundredths`` (little-endian `Int16`), as the characteristic carries it.
    public var gattBytes: [UInt8] { hundredths.gattBytes }

    /// ``hundredths`` ÷ 100, in the thermostat's unit (Celsius or Fahrenheit: ``TemperatureUnit``).
    public var degrees: Double { Double(hundredths) / 100 }

    /// Orders temperatures.
    public static func < (lhs: Temperature, rhs: Temperature) -> Bool { lhs.hundredths < rhs.hundredths }

    /// `21.50°`.
    public var description: String {
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = Int(hundredths).magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)°"
    }
}
