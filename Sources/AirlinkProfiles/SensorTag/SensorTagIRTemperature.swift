import AirlinkCore

/// The IR temperature data (F000AA01): the TMP006's thermopile voltage and die temperature registers.
///
/// Layout, 4 bytes: object voltage LSB, MSB (signed 16-bit, 156.25 nV per count), die temperature LSB, MSB
/// (signed 16-bit; 14 bits left-justified, 1/32 °C per step, so raw / 128 °C). The die temperature is the
/// tag's ambient temperature; the object temperature follows from both with TI's formula
/// (``objectCelsius(voltage:dieCelsius:)``).
///
/// The value keeps the raw registers, so bytes → value → bytes is exact; the temperatures are computed.
/// ``init(objectCelsius:ambientCelsius:)`` is the simulated device's encoder.
///
/// ```swift
/// let reading = try SensorTagIRTemperature(gattBytes: [0x00, 0x00, 0x00, 0x0C])
/// reading.ambientCelsius   // 24.0
/// reading.objectCelsius    // 28.2 (the thermopile sees no difference, less its offset)
/// ```
public struct SensorTagIRTemperature: GATTValue, Hashable, CustomStringConvertible {
    /// The thermopile voltage register (TMP006 register 0x00), 156.25 nV per count.
    public let rawObjectVoltage: Int16
    /// The die temperature register (TMP006 register 0x01), 1/128 °C per count.
    public let rawDieTemperature: Int16

    /// The object temperature, computed once the registers are known to give one.
    public let objectCelsius: Double

    /// Creates a reading from the two registers.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` if TI's formula gives no object temperature for
    ///   them (an object below absolute zero, or a die temperature outside the model's range).
    public init(rawObjectVoltage: Int16, rawDieTemperature: Int16) throws(AirlinkError) {
        self.rawObjectVoltage = rawObjectVoltage
        self.rawDieTemperature = rawDieTemperature
        self.objectCelsius = try Self.objectCelsius(
            voltage: Double(rawObjectVoltage) * Self.voltsPerCount,
            dieCelsius: Double(rawDieTemperature) / 128)
    }

    /// Decodes the 4 bytes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for any length but 4, or for registers that give
    ///   no object temperature (the fault is at offset 0, the voltage).
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try SensorTagBytes.requireLength(
            gattBytes, 4, sensor: "\(SensorTagSensor.irTemperature) data", characteristic: .sensorTagIRTemperatureData)
        do {
            try self.init(
                rawObjectVoltage: SensorTagBytes.int16(gattBytes, at: 0),
                rawDieTemperature: SensorTagBytes.int16(gattBytes, at: 2))
        } catch {
            throw AirlinkError(.malformedData, "\(error.message) (the fault is at offset 0)")
        }
    }

    /// Object voltage LSB, MSB, die temperature LSB, MSB.
    public var gattBytes: [UInt8] {
        SensorTagBytes.bytes(rawObjectVoltage) + SensorTagBytes.bytes(rawDieTemperature)
    }

    /// The die (ambient) temperature, raw / 128 °C.
    public var ambientCelsius: Double { Double(rawDieTemperature) / 128 }

    /// The thermopile voltage in volts, raw × 156.25 nV.
    public var objectVoltage: Double { Double(rawObjectVoltage) * Self.voltsPerCount }

    /// `"object 28.20 °C, ambient 24.00 °C"`.
    public var description: String {
        "object \(SensorTagFormat.fixed(objectCelsius, 2)) °C, ambient \(SensorTagFormat.fixed(ambientCelsius, 2)) °C"
    }

    // MARK: Encoder

    /// The simulated device's encoder: the registers a TMP006 would report for these temperatures.
    ///
    /// The die temperature is rounded to the register's 1/32 °C step (error ≤ 1/64 °C) and saturates at the
    /// TMP006's specified die range, -40 ... 125 °C. The voltage is then found by inverting the object
    /// formula for the *rounded* die temperature (the one the client will use): the formula is quadratic in
    /// `Vobj - Vos`, so `Vobj = Vos + 2f / (1 + √(1 + 4·c2·f))` with `f = S·(Tobj⁴ - Tdie⁴)`; the voltage is
    /// rounded to a count and the neighbouring counts are tried against the forward formula, keeping the
    /// one whose object temperature is nearest. The object error is so at most half a count's worth:
    /// below 0.03 °C for objects from -40 to 125 °C. Objects outside the register's ±5.12 mV saturate.
    ///
    /// - Parameters:
    ///   - objectCelsius: the temperature of what the sensor looks at.
    ///   - ambientCelsius: the sensor's die temperature.
    public init(objectCelsius: Double, ambientCelsius: Double) {
        let dieSteps = (min(125, max(-40, ambientCelsius)) * 32).rounded()
        let rawDie = Int16(dieSteps) * 4
        let die = Double(rawDie) / 128
        let ideal = Self.voltage(objectCelsius: max(objectCelsius, -Self.kelvinOffset), dieCelsius: die)
        let center = Int(SensorTagBytes.clampedInt16(ideal / Self.voltsPerCount))
        // The lowest count that still gives a temperature (objects at 0 K): counts below it have none.
        let lowest = Int(
            SensorTagBytes.clampedInt16(
                (Self.voltage(objectCelsius: -Self.kelvinOffset, dieCelsius: die) / Self.voltsPerCount).rounded(.up)))
        func object(_ raw: Int16) -> Double? {
            // try?: a count with no physical temperature (below 0 K) is no candidate, which nil says
            try? Self.objectCelsius(voltage: Double(raw) * Self.voltsPerCount, dieCelsius: die)
        }
        var best: (raw: Int16, object: Double, error: Double)?
        for candidate in [center - 1, center, center + 1] {
            let raw = Int16(clamping: max(candidate, lowest))
            guard let decoded = object(raw) else { continue }
            let error = abs(decoded - objectCelsius)
            if let current = best, current.error <= error { continue }
            best = (raw, decoded, error)
        }
        let zeroKelvin = -Self.kelvinOffset
        self.rawObjectVoltage = best?.raw ?? Int16(clamping: lowest)
        self.rawDieTemperature = rawDie
        self.objectCelsius = best?.object ?? object(Int16(clamping: lowest)) ?? zeroKelvin
    }
}
