import AirlinkCore

/// The humidity data (F000AA21): the SHT21's temperature and relative humidity words.
///
/// Layout, 4 bytes: temperature LSB, MSB, humidity LSB, MSB (both unsigned 16-bit). Formulas from the
/// SHT21 datasheet (Sensirion, version 3, section 6.1/6.2), as the SensorTag User Guide and Deanna use them:
///
/// ```
/// T  = -46.85 + 175.72 / 65536 × raw_t          °C
/// RH = -6 + 125 / 65536 × (raw_h & ~0x0003)     %RH
/// ```
///
/// The two lowest bits of each word are status bits (bit 1 is set in a humidity word) and are cleared
/// before either formula, as the datasheet says. (TI's wiki casts `raw_t` to `int16`, which breaks
/// temperatures above about 41 °C; Deanna and this type read it unsigned.)
///
/// The value keeps the raw words, so bytes → value → bytes is exact; ``init(temperatureCelsius:relativeHumidity:)``
/// is the simulated device's encoder.
public struct SensorTagHumidity: GATTValue, Hashable, CustomStringConvertible {
    /// The temperature word as the SHT21 sends it (14-bit measurement, status bits 1...0).
    public var rawTemperature: UInt16
    /// The humidity word as the SHT21 sends it (12-bit measurement in bits 15...4, status bit 1 set).
    public var rawHumidity: UInt16

    /// Creates a reading from the two words.
    public init(rawTemperature: UInt16, rawHumidity: UInt16) {
        self.rawTemperature = rawTemperature
        self.rawHumidity = rawHumidity
    }

    /// Decodes the 4 bytes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for any length but 4.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try SensorTagBytes.requireLength(
            gattBytes, 4, sensor: "\(SensorTagSensor.humidity) data", characteristic: .sensorTagHumidityData)
        self.init(
            rawTemperature: SensorTagBytes.uint16(gattBytes, at: 0),
            rawHumidity: SensorTagBytes.uint16(gattBytes, at: 2))
    }

    /// Temperature LSB, MSB, humidity LSB, MSB.
    public var gattBytes: [UInt8] { SensorTagBytes.bytes(rawTemperature) + SensorTagBytes.bytes(rawHumidity) }

    /// The temperature in °C: -46.85 + 175.72 / 65536 × (raw_t with the status bits cleared).
    public var temperatureCelsius: Double { -46.85 + 175.72 / 65536 * Double(rawTemperature & ~0x0003) }

    /// The relative humidity in percent: -6 + 125 / 65536 × (raw_h with the status bits cleared).
    public var relativeHumidity: Double { -6 + 125 / 65536 * Double(rawHumidity & ~0x0003) }

    /// `"23.50 °C, 45.2 %RH"`.
    public var description: String {
        "\(SensorTagFormat.fixed(temperatureCelsius, 2)) °C, \(SensorTagFormat.fixed(relativeHumidity, 1)) %RH"
    }

    /// The simulated device's encoder: the words an SHT21 at its default resolution would send.
    ///
    /// The temperature is rounded to the nearest 14-bit step (175.72 / 16384 ≈ 0.0107 °C, so the error is at
    /// most 0.0054 °C) and the humidity to the nearest 12-bit step (125 / 4096 ≈ 0.0305 %RH, error at most
    /// 0.0153 %RH); the humidity word carries status bit 1 as the sensor's does. Values beyond what a word
    /// can say (-46.85 ... 128.87 °C, -6 ... 119 %RH) saturate.
    ///
    /// - Parameters:
    ///   - temperatureCelsius: the temperature in °C.
    ///   - relativeHumidity: the relative humidity in percent.
    public init(temperatureCelsius: Double, relativeHumidity: Double) {
        let temperatureSteps = ((temperatureCelsius + 46.85) * 65536 / 175.72 / 4).rounded()
        let humiditySteps = ((relativeHumidity + 6) * 65536 / 125 / 16).rounded()
        let t = temperatureSteps.isNaN ? 0 : UInt16(max(0, min(16383, temperatureSteps)))
        let h = humiditySteps.isNaN ? 0 : UInt16(max(0, min(4095, humiditySteps)))
        self.init(rawTemperature: t << 2, rawHumidity: h << 4 | 0x0002)
    }
}
