import AirlinkCore

/// The gyroscope data (F000AA51): the IMU-3000's three 16-bit axes at its ±250 °/s range.
///
/// Layout, 6 bytes: X LSB, MSB, Y LSB, MSB, Z LSB, MSB, each signed. At ±250 °/s the IMU-3000 gives
/// 131 counts per °/s (IMU-3000 product specification, FS_SEL = 0); TI's SensorTag User Guide and Deanna's
/// `calcGyro` use `ω = raw × 500 / 65536 °/s` (131.072 counts per °/s), and so does this type. Axes that the
/// configuration leaves off read 0 here (``masked(to:)``). The axes are the sensor's; TI's and Deanna's
/// apps rename and negate them to draw the tag.
public struct SensorTagAngularVelocity: GATTValue, Hashable, CustomStringConvertible {
    /// Degrees per second per count, 500 / 65536.
    public static let degreesPerSecondPerCount = 500.0 / 65536

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
            gattBytes, 6, sensor: "\(SensorTagSensor.gyroscope) data", characteristic: .sensorTagGyroscopeData)
        self.init(
            rawX: SensorTagBytes.int16(gattBytes, at: 0), rawY: SensorTagBytes.int16(gattBytes, at: 2),
            rawZ: SensorTagBytes.int16(gattBytes, at: 4))
    }

    /// X, Y, Z, little-endian.
    public var gattBytes: [UInt8] { [rawX, rawY, rawZ].flatMap { SensorTagBytes.bytes($0) } }

    /// The angular velocity in degrees per second: raw × 500 / 65536 per axis.
    public var degreesPerSecond: SensorTagVector {
        SensorTagVector(
            x: Double(rawX) * Self.degreesPerSecondPerCount, y: Double(rawY) * Self.degreesPerSecondPerCount,
            z: Double(rawZ) * Self.degreesPerSecondPerCount)
    }

    /// The angular velocity in radians per second.
    public var radiansPerSecond: SensorTagVector { (Double.pi / 180) * degreesPerSecond }

    /// `"(1.5, 0.0, -3.2) °/s"`.
    public var description: String { "\(degreesPerSecond) °/s" }

    /// This reading with the axes the configuration leaves off set to 0.
    ///
    /// - Parameter axes: the enabled axes.
    public func masked(to axes: SensorTagGyroscopeAxes) -> SensorTagAngularVelocity {
        SensorTagAngularVelocity(
            rawX: axes.contains(.x) ? rawX : 0, rawY: axes.contains(.y) ? rawY : 0, rawZ: axes.contains(.z) ? rawZ : 0)
    }

    /// The simulated device's encoder: each axis rounded to the nearest count (error at most 0.0039 °/s)
    /// and saturated at ±250 °/s.
    ///
    /// - Parameter degreesPerSecond: the rotation rate about the sensor's axes, in °/s.
    public init(degreesPerSecond: SensorTagVector) {
        self.init(
            rawX: SensorTagBytes.clampedInt16(degreesPerSecond.x / Self.degreesPerSecondPerCount),
            rawY: SensorTagBytes.clampedInt16(degreesPerSecond.y / Self.degreesPerSecondPerCount),
            rawZ: SensorTagBytes.clampedInt16(degreesPerSecond.z / Self.degreesPerSecondPerCount))
    }
}
