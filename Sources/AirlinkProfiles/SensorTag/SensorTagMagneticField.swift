import AirlinkCore

/// The magnetometer data (F000AA31): the MAG3110's three 16-bit axes.
///
/// Layout, 6 bytes: X LSB, MSB, Y LSB, MSB, Z LSB, MSB, each signed. TI's SensorTag User Guide and apps
/// (and Deanna's `calcMag`) scale the full 16-bit range to ±1000 µT: `B = raw × 2000 / 65536 µT`, about
/// 0.0305 µT per count. (The MAG3110 datasheet gives 0.1 µT per count over ±1000 µT; this type follows
/// TI's formula, which every SensorTag client uses, and the simulated device encodes with the same one.)
/// The axes are the sensor's; TI's Android app negates X and Y to draw the tag.
public typealias SensorTagMagneticField = SensorTagTriaxialReading<SensorTagMagnetometerScale>

/// The magnetometer's scale, as TI's formula has it: 2000 / 65536 µT per count.
public enum SensorTagMagnetometerScale: SensorTagTriaxialScale {
    /// The sensor, its data characteristic, µT and the size of a count.
    public static let scale = SensorTagAxisScale(
        sensor: .magnetometer, dataCharacteristic: .sensorTagMagnetometerData, unitsPerCount: 2000.0 / 65536,
        unitSymbol: "µT")
}

extension SensorTagTriaxialReading where Scale == SensorTagMagnetometerScale {
    /// Microtesla per count, 2000 / 65536.
    public static var microteslaPerCount: Double { Scale.scale.unitsPerCount }

    /// The field in microtesla: raw × 2000 / 65536 per axis.
    public var microtesla: SensorTagVector { scaled }

    /// The simulated device's encoder: each axis rounded to the nearest count (error at most 0.0153 µT)
    /// and saturated at ±1000 µT.
    ///
    /// - Parameter microtesla: the field at the sensor, in µT.
    public init(microtesla: SensorTagVector) { self.init(scaled: microtesla) }
}
