import AirlinkCore

/// The byte a client writes to a sensor's configuration characteristic (F000AA02, AA12, ... AA52).
///
/// Every sensor takes 0x00 (off) and 0x01 (on); the barometer also takes 0x02, which makes the firmware
/// copy the T5400's calibration coefficients into F000AA43; the gyroscope takes an axis bitmask
/// (``SensorTagGyroscopeAxes``, 0x07 for all three). Source: `ST_CFG_SENSOR_DISABLE`,
/// `ST_CFG_SENSOR_ENABLE`, `ST_CFG_CALIBRATE` in TI's `SensorTag.c`, and the CC2541 SensorTag User Guide.
public struct SensorTagConfiguration: GATTValue, RawRepresentable, Hashable, CustomStringConvertible {
    /// 0x00 off, 0x01 on, 0x02 calibrate (barometer only), or the gyroscope's axis bitmask.
    public var rawValue: UInt8

    /// Creates a configuration from its byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: the sensor is off (the firmware also resets its data to zeros).
    public static let off = SensorTagConfiguration(rawValue: 0x00)
    /// 0x01: the sensor measures every period (for the gyroscope: the X axis only).
    public static let on = SensorTagConfiguration(rawValue: 0x01)
    /// 0x02, barometer only: read the calibration coefficients into F000AA43.
    public static let readCalibration = SensorTagConfiguration(rawValue: 0x02)

    /// The gyroscope configuration that enables these axes (0x00 ... 0x07).
    ///
    /// - Parameter axes: the axes to enable; none turns the gyroscope off.
    public static func gyroscope(_ axes: SensorTagGyroscopeAxes) -> SensorTagConfiguration {
        SensorTagConfiguration(rawValue: axes.rawValue)
    }

    /// What this byte asks of a sensor, as the firmware interprets it.
    ///
    /// - Parameter sensor: the sensor whose configuration characteristic received the byte.
    /// - Returns: the command.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a byte the sensor does not define (the firmware
    ///   stores such a byte but does nothing with it).
    public func command(for sensor: SensorTagSensor) throws(AirlinkError) -> SensorTagConfiguration.Command {
        switch (sensor, rawValue) {
        case (_, 0x00): return .disable
        case (.gyroscope, 0x01...0x07): return .enableAxes(SensorTagGyroscopeAxes(rawValue: rawValue))
        case (.gyroscope, _): break
        case (_, 0x01): return .enable
        case (.barometer, 0x02): return .readCalibration
        default: break
        }
        let allowed =
            switch sensor {
            case .gyroscope: "0x00 (off) or an axis mask 0x01 ... 0x07 (bit 0 X, bit 1 Y, bit 2 Z)"
            case .barometer: "0x00 (off), 0x01 (on) or 0x02 (read calibration)"
            default: "0x00 (off) or 0x01 (on)"
            }
        throw AirlinkError(
            .invalidArgument,
            "the \(sensor) configuration (\(sensor.configurationUUID)) takes \(allowed), not \(self)")
    }

    /// What a configuration byte asks of a sensor.
    public enum Command: Hashable, Sendable {
        /// Turn the sensor off.
        case disable
        /// Turn the sensor on.
        case enable
        /// Gyroscope: turn on these axes (at least one).
        case enableAxes(SensorTagGyroscopeAxes)
        /// Barometer: copy the calibration coefficients into the calibration characteristic.
        case readCalibration
    }

    /// Decodes the one byte.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` if there is not exactly one byte.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        self.rawValue = try SensorTagByte.only(gattBytes, "a SensorTag configuration")
    }

    /// `[rawValue]`, as the sensor's configuration characteristic takes it.
    public var gattBytes: [UInt8] { [rawValue] }

    /// `"0x01"`.
    public var description: String {
        "0x" + (rawValue < 0x10 ? "0" : "") + String(rawValue, radix: 16, uppercase: true)
    }
}

/// The gyroscope axes a configuration enables: bit 0 X, bit 1 Y, bit 2 Z (CC2541 SensorTag User Guide).
public struct SensorTagGyroscopeAxes: OptionSet, Hashable, Sendable {
    /// The mask, bits 0 ... 2.
    public var rawValue: UInt8

    /// Creates a set from its mask.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The X axis, bit 0.
    public static let x = SensorTagGyroscopeAxes(rawValue: 0x01)
    /// The Y axis, bit 1.
    public static let y = SensorTagGyroscopeAxes(rawValue: 0x02)
    /// The Z axis, bit 2.
    public static let z = SensorTagGyroscopeAxes(rawValue: 0x04)
    /// All three axes, 0x07, as Deanna writes to turn the gyroscope on.
    public static let all: SensorTagGyroscopeAxes = [.x, .y, .z]
}
