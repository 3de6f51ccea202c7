import AirlinkCore

/// The magnetometer data (F000AA31): the MAG3110's three 16-bit axes.
///
/// Layout, 6 bytes: X LSB, MSB, Y LSB, MSB, Z LSB, MSB, each signed. TI's SensorTag User Guide and apps
/// (and Deanna's `calcMag`) scale the full 16-bit range to ±1000 µT: `B = raw × 2000 / 65536 µT`, about
/// 0.0305 µT per count. (The MAG3110 datasheet gives 0.1 µT per count over ±1000 µT; this type follows
/// TI's formula, which every SensorTag client uses, and the simulated device encodes with the same one.)
/// The axes are the sensor's; TI's Android app negates X and Y to draw the tag.
public struct SensorTagMagneticField: GATTValue, Hashable, CustomStringConvertible {
    /// Microtesla per count, 2000 / 65536.
    public static let microteslaPerCount = 2000.0 / 65536

    /// The raw X axis.
    public var rawX: Int16
    /// The raw Y axis.
    public var rawY: Int16
    /// The raw Z axis.
    public var rawZ: Int16

    /// Creates a reading from the three counts.
    public init(rawX: Int16, rawY: Int16, rawZ: Int16) {
        (self.rawX, self.rawY, self.rawZ) = (rawX, rawY, rawZ)
    }

    /// Decodes the 6 bytes.
    ///
    /// - Throws: ``AirlinkError/Code/malformedData`` for any length but 6.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try SensorTagBytes.requireLength(
            gattBytes, 6, sensor: "\(SensorTagSensor.magnetometer) data", characteristic: .sensorTagMagnetometerData)
        self.init(
            rawX: SensorTagBytes.int16(gattBytes, at: 0), rawY: SensorTagBytes.int16(gattBytes, at: 2),
            rawZ: SensorTagBytes.int16(gattBytes, at: 4))
    }

    /// X, Y, Z, little-endian.
    public var gattBytes: [UInt8] { [rawX, rawY, rawZ].flatMap { SensorTagBytes.bytes($0) } }

    /// The field in microtesla: raw × 2000 / 65536 per axis.
    public var microtesla: SensorTagVector {
        SensorTagVector(
            x: Double(rawX) * Self.microteslaPerCount, y: Double(rawY) * Self.microteslaPerCount,
            z: Double(rawZ) * Self.microteslaPerCount)
    }

    /// `"(20.0, 0.0, -44.0) µT"`.
    public var description: String { "\(microtesla) µT" }

    /// The simulated device's encoder: each axis rounded to the nearest count (error at most 0.0153 µT)
    /// and saturated at ±1000 µT.
    ///
    /// - Parameter microtesla: the field at the sensor, in µT.
    public init(microtesla: SensorTagVector) {
        self.init(
            rawX: SensorTagBytes.clampedInt16(microtesla.x / Self.microteslaPerCount),
            rawY: SensorTagBytes.clampedInt16(microtesla.y / Self.microteslaPerCount),
            rawZ: SensorTagBytes.clampedInt16(microtesla.z / Self.microteslaPerCount))
    }
}
