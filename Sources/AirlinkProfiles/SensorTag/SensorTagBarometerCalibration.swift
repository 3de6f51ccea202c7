import AirlinkCore

/// The T5400's calibration coefficients (F000AA43), and the compensation formulas that use them.
///
/// Layout, 16 bytes: c1 ... c8, each 16-bit little-endian; c1 ... c4 unsigned, c5 ... c8 signed (TI's
/// `hal_bar.c`, which reads them from the C953A's registers 0x8E ... 0x9D). The tag fills the
/// characteristic only after a client writes 0x02 (``SensorTagConfiguration/readCalibration``) to the
/// configuration; until then it reads as 16 zeros, which ``isUsable`` rejects.
///
/// Compensation, from the EPCOS application note as TI's `hal_bar.c` and the SensorTag User Guide give it
/// (Tr signed, Pr unsigned, the raw data of ``SensorTagBarometerData``):
///
/// ```
/// Ta = c1·Tr / 2^24 + c2 / 2^10                           °C
/// S  = c3 + c4·Tr / 2^17 + c5·Tr² / 2^34                  sensitivity
/// O  = c6·2^14 + c7·Tr / 2^3 + c8·Tr² / 2^19              offset
/// Pa = (S·Pr + O) / 2^14                                  Pa
/// ```
///
/// This type evaluates the formulas in `Double`. TI's and Deanna's integer versions shift intermediate
/// terms right, which truncates them: with ``simulated`` they differ from this type by up to 0.01 °C and
/// 9 Pa (measured over random raw values).
public struct SensorTagBarometerCalibration: GATTValue, Hashable, CustomStringConvertible {
    /// c1 (unsigned): temperature sensitivity.
    public var c1: UInt16
    /// c2 (unsigned): temperature offset.
    public var c2: UInt16
    /// c3 (unsigned): pressure sensitivity.
    public var c3: UInt16
    /// c4 (unsigned): first-order temperature coefficient of the sensitivity.
    public var c4: UInt16
    /// c5 (signed): second-order temperature coefficient of the sensitivity.
    public var c5: Int16
    /// c6 (signed): pressure offset.
    public var c6: Int16
    /// c7 (signed): first-order temperature coefficient of the offset.
    public var c7: Int16
    /// c8 (signed): second-order temperature coefficient of the offset.
    public var c8: Int16

    /// Creates a calibration from its eight coefficients.
    public init(
        c1: UInt16, c2: UInt16, c3: UInt16, c4: UInt16, c5: Int16, c6: Int16, c7: Int16, c8: Int16
    ) {
        (self.c1, self.c2, self.c3, self.c4) = (c1, c2, c3, c4)
        (self.c5, self.c6, self.c7, self.c8) = (c5, c6, c7, c8)
    }

    /// The simulated tag's coefficients. Invented, not read off a device: chosen so that raw temperatures
    /// cover -60 ... 110 °C at 0.0027 °C per count (25 °C at Tr = 0) and raw pressures cover about
    /// 24 ... 120 kPa at about 1.5 Pa per count, with modest temperature terms.
    public static let simulated = SensorTagBarometerCalibration(
        c1: 45000, c2: 25600, c3: 24000, c4: 3000, c5: -1000, c6: 24000, c7: 2000, c8: -2000)

    /// Decodes the 16 bytes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for any length but 16.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try SensorTagBytes.requireLength(
            gattBytes, 16, sensor: "\(SensorTagSensor.barometer) calibration",
            characteristic: .sensorTagBarometerCalibration)
        self.init(
            c1: SensorTagBytes.uint16(gattBytes, at: 0), c2: SensorTagBytes.uint16(gattBytes, at: 2),
            c3: SensorTagBytes.uint16(gattBytes, at: 4), c4: SensorTagBytes.uint16(gattBytes, at: 6),
            c5: SensorTagBytes.int16(gattBytes, at: 8), c6: SensorTagBytes.int16(gattBytes, at: 10),
            c7: SensorTagBytes.int16(gattBytes, at: 12), c8: SensorTagBytes.int16(gattBytes, at: 14))
    }

    /// c1 ... c8, little-endian.
    public var gattBytes: [UInt8] {
        [c1, c2, c3, c4].flatMap { SensorTagBytes.bytes($0) } + [c5, c6, c7, c8].flatMap { SensorTagBytes.bytes($0) }
    }

    /// Whether the coefficients can compensate: c1 and c3 are not zero. A tag that has not been asked for
    /// its calibration (config 0x02) sends zeros.
    public var isUsable: Bool { c1 != 0 && c3 != 0 }

    /// `"c1=45000 c2=25600 ... c8=-2000"`.
    public var description: String {
        "c1=\(c1) c2=\(c2) c3=\(c3) c4=\(c4) c5=\(c5) c6=\(c6) c7=\(c7) c8=\(c8)"
    }

    // MARK: Compensation

    /// The temperature in °C for a raw temperature: `c1·Tr / 2^24 + c2 / 2^10`.
    ///
    /// - Parameter rawTemperature: Tr, the signed raw temperature.
    public func temperatureCelsius(rawTemperature: Int16) -> Double {
        Double(c1) * Double(rawTemperature) / 16_777_216 + Double(c2) / 1024
    }

    /// The sensitivity `S = c3 + c4·Tr / 2^17 + c5·Tr² / 2^34` at a raw temperature.
    ///
    /// - Parameter rawTemperature: Tr.
    public func sensitivity(rawTemperature: Int16) -> Double {
        let tr = Double(rawTemperature)
        return Double(c3) + Double(c4) * tr / 131_072 + Double(c5) * tr * tr / 17_179_869_184
    }

    /// The offset `O = c6·2^14 + c7·Tr / 2^3 + c8·Tr² / 2^19` at a raw temperature.
    ///
    /// - Parameter rawTemperature: Tr.
    public func offset(rawTemperature: Int16) -> Double {
        let tr = Double(rawTemperature)
        return Double(c6) * 16384 + Double(c7) * tr / 8 + Double(c8) * tr * tr / 524_288
    }

    /// The pressure in pascals: `(S·Pr + O) / 2^14`.
    ///
    /// - Parameters:
    ///   - rawTemperature: Tr, measured with the pressure.
    ///   - rawPressure: Pr, the unsigned raw pressure.
    public func pressurePascals(rawTemperature: Int16, rawPressure: UInt16) -> Double {
        (sensitivity(rawTemperature: rawTemperature) * Double(rawPressure) + offset(rawTemperature: rawTemperature))
            / 16384
    }

    /// Compensates raw data.
    ///
    /// - Parameter data: the raw temperature and pressure.
    /// - Returns: temperature and pressure.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` if the calibration is not ``isUsable``.
    public func reading(from data: SensorTagBarometerData) throws(AirlinkError) -> SensorTagBarometerReading {
        guard isUsable else { throw SensorTagBarometerReading.missingCalibration(zeros: true) }
        return SensorTagBarometerReading(
            temperatureCelsius: temperatureCelsius(rawTemperature: data.rawTemperature),
            pressurePascals: pressurePascals(rawTemperature: data.rawTemperature, rawPressure: data.rawPressure))
    }

    /// The simulated device's encoder: the raw data a T5400 with these coefficients would report.
    ///
    /// The raw temperature is the compensation inverted and rounded to a count (error at most half of
    /// `c1 / 2^24` °C, 0.0014 °C with ``simulated``); the raw pressure is then inverted at *that* raw
    /// temperature, as the client will compensate with it, and rounded (error at most half of `S / 2^14` Pa,
    /// below 0.8 Pa with ``simulated``). Values beyond the raw ranges saturate.
    ///
    /// - Parameters:
    ///   - temperatureCelsius: the sensor's temperature in °C.
    ///   - pressurePascals: the pressure in pascals.
    public func data(temperatureCelsius: Double, pressurePascals: Double) -> SensorTagBarometerData {
        let rawTemperature = SensorTagBytes.clampedInt16(
            (temperatureCelsius - Double(c2) / 1024) * 16_777_216 / Double(c1))
        let rawPressure = SensorTagBytes.clampedUInt16(
            (pressurePascals * 16384 - offset(rawTemperature: rawTemperature))
                / sensitivity(rawTemperature: rawTemperature))
        return SensorTagBarometerData(rawTemperature: rawTemperature, rawPressure: rawPressure)
    }
}
