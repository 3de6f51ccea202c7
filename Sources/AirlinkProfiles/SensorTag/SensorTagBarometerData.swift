import AirlinkCore

/// The barometer data (F000AA41): the T5400's raw temperature and raw pressure, uncompensated.
///
/// Layout, 4 bytes: temperature LSB, MSB (signed 16-bit Tr), pressure LSB, MSB (unsigned 16-bit Pr), as
/// TI's `hal_bar.c` fills them. The numbers mean nothing without the tag's calibration coefficients:
/// ``SensorTagBarometerCalibration/reading(from:)`` or ``SensorTagBarometerReading/init(gattBytes:calibration:)``
/// turns them into °C and Pa.
public struct SensorTagBarometerData: GATTValue, Hashable, CustomStringConvertible {
    /// Tr, the raw temperature (signed).
    public var rawTemperature: Int16
    /// Pr, the raw pressure (unsigned).
    public var rawPressure: UInt16

    /// Creates raw data.
    public init(rawTemperature: Int16, rawPressure: UInt16) {
        self.rawTemperature = rawTemperature
        self.rawPressure = rawPressure
    }

    /// Decodes the 4 bytes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for any length but 4.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try SensorTagBytes.requireLength(
            gattBytes, 4, sensor: "\(SensorTagSensor.barometer) data", characteristic: .sensorTagBarometerData)
        self.init(
            rawTemperature: SensorTagBytes.int16(gattBytes, at: 0), rawPressure: SensorTagBytes.uint16(gattBytes, at: 2)
        )
    }

    /// Temperature LSB, MSB, pressure LSB, MSB.
    public var gattBytes: [UInt8] { SensorTagBytes.bytes(rawTemperature) + SensorTagBytes.bytes(rawPressure) }

    /// `"Tr=1234 Pr=45678"`.
    public var description: String { "Tr=\(rawTemperature) Pr=\(rawPressure)" }
}

/// A compensated barometer reading: temperature and pressure.
///
/// The barometer's data cannot be decoded alone: ``init(gattBytes:calibration:)`` takes the coefficients
/// the client read from F000AA43 and fails, typed, without them.
public struct SensorTagBarometerReading: Hashable, Sendable, CustomStringConvertible {
    /// The T5400's temperature in °C.
    public var temperatureCelsius: Double
    /// The compensated pressure in pascals (101,325 Pa at sea level), from the calibration coefficients.
    public var pressurePascals: Double

    /// Creates a reading.
    public init(temperatureCelsius: Double, pressurePascals: Double) {
        self.temperatureCelsius = temperatureCelsius
        self.pressurePascals = pressurePascals
    }

    /// Decodes barometer data with the tag's calibration.
    ///
    /// - Parameters:
    ///   - gattBytes: the 4 bytes of F000AA41.
    ///   - calibration: the coefficients read from F000AA43, or `nil` if the client has none yet.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` if there is no usable calibration (none, or the
    ///   zeros a tag sends before config 0x02); ``/AirlinkCore/AirlinkError/Code/malformedData`` for a wrong length.
    public init(gattBytes: [UInt8], calibration: SensorTagBarometerCalibration?) throws(AirlinkError) {
        let data = try SensorTagBarometerData(gattBytes: gattBytes)
        guard let calibration else { throw Self.missingCalibration(zeros: false) }
        self = try calibration.reading(from: data)
    }

    /// The pressure in hectopascals (millibars), as weather reports give it.
    public var hectopascals: Double { pressurePascals / 100 }

    /// `"21.40 °C, 1013.25 hPa"`.
    public var description: String {
        "\(SensorTagFormat.fixed(temperatureCelsius, 2)) °C, \(SensorTagFormat.fixed(hectopascals, 2)) hPa"
    }

    /// The error for barometer data decoded without calibration.
    static func missingCalibration(zeros: Bool) -> AirlinkError {
        AirlinkError(
            .invalidArgument,
            (zeros
                ? "the barometer calibration is zeros (c1 or c3 is 0): the tag sends zeros until asked. "
                : "barometer data (F000AA41) cannot be decoded without the calibration. ")
                + "Write 0x02 to the barometer configuration (F000AA42), read the calibration (F000AA43), "
                + "then decode with it")
    }
}
