import AirlinkCore

/// The gyroscope data (F000AA51): the IMU-3000's three 16-bit axes at its ±250 °/s range.
///
/// Layout, 6 bytes: X LSB, MSB, Y LSB, MSB, Z LSB, MSB, each signed. At ±250 °/s the IMU-3000 gives
/// 131 counts per °/s (IMU-3000 product specification, FS_SEL = 0); TI's SensorTag User Guide and Deanna's
/// `calcGyro` use `ω = raw × 500 / 65536 °/s` (131.072 counts per °/s), and so does this type. Axes that the
/// configuration leaves off read 0 here (``SensorTagTriaxialReading/masked(to:)``). The axes are the sensor's;
/// TI's and Deanna's apps rename and negate them to draw the tag.
public typealias SensorTagAngularVelocity = SensorTagTriaxialReading<SensorTagGyroscopeScale>

/// The gyroscope's scale: the IMU-3000 at ±250 °/s, 500 / 65536 °/s per count.
public enum SensorTagGyroscopeScale: SensorTagTriaxialScale {
    /// The sensor, its data characteristic, °/s and the size of a count.
    public static let scale = SensorTagAxisScale(
        sensor: .gyroscope, dataCharacteristic: .sensorTagGyroscopeData, unitsPerCount: 500.0 / 65536,
        unitSymbol: "°/s"
    )
}

extension SensorTagTriaxialReading where Scale == SensorTagGyroscopeScale {
    /// Degrees per second per count, 500 / 65536.
    public static var degreesPerSecondPerCount: Double { Scale.scale.unitsPerCount }

    /// The angular velocity in degrees per second: raw × 500 / 65536 per axis.
    public var degreesPerSecond: SensorTagVector { scaled }

    /// The angular velocity in radians per second.
    public var radiansPerSecond: SensorTagVector { (Double.pi / 180) * degreesPerSecond }

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
    public init(degreesPerSecond: SensorTagVector) { self.init(scaled: degreesPerSecond) }
}
