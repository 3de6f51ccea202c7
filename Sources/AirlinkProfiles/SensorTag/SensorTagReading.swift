import AirlinkCore

/// One decoded measurement of a SensorTag, in the units the codecs give (see each type).
public enum SensorTagReading: Sendable, Hashable, CustomStringConvertible {
    /// TMP006: object and ambient temperature, °C.
    case irTemperature(SensorTagIRTemperature)
    /// KXTJ9: acceleration, g (``SensorTagAcceleration/metersPerSecondSquared`` in SI).
    case accelerometer(SensorTagAcceleration)
    /// SHT21: temperature, °C, and relative humidity, %.
    case humidity(SensorTagHumidity)
    /// MAG3110: magnetic field, µT.
    case magnetometer(SensorTagMagneticField)
    /// T5400: temperature, °C, and pressure, Pa, compensated with the tag's calibration.
    case barometer(SensorTagBarometerReading)
    /// IMU-3000: rotation rate, °/s (`SensorTagAngularVelocity.radiansPerSecond` in SI).
    case gyroscope(SensorTagAngularVelocity)
    /// Simple keys: the keys held down.
    case keys(SensorTagKeys)

    /// The sensor that measured it, or `nil` for the keys.
    public var sensor: SensorTagSensor? {
        switch self {
        case .irTemperature: .irTemperature
        case .accelerometer: .accelerometer
        case .humidity: .humidity
        case .magnetometer: .magnetometer
        case .barometer: .barometer
        case .gyroscope: .gyroscope
        case .keys: nil
        }
    }

    /// A short name: the sensor's raw value, or `keys`.
    public var name: String { sensor?.rawValue ?? "keys" }

    /// `humidity: 21.40 °C, 45.2 %RH`.
    public var description: String {
        switch self {
        case .irTemperature(let value): "\(name): \(value)"
        case .accelerometer(let value): "\(name): \(value)"
        case .humidity(let value): "\(name): \(value)"
        case .magnetometer(let value): "\(name): \(value)"
        case .barometer(let value): "\(name): \(value)"
        case .gyroscope(let value): "\(name): \(value)"
        case .keys(let value): "\(name): \(value)"
        }
    }

    /// Decodes a sensor's data.
    ///
    /// - Parameters:
    ///   - bytes: the data characteristic's value.
    ///   - sensor: the sensor.
    ///   - calibration: the barometer's calibration (needed for the barometer only).
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for a wrong length;
    ///   ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for barometer data without a usable calibration.
    public init(
        decoding bytes: [UInt8], of sensor: SensorTagSensor, calibration: SensorTagBarometerCalibration?
    ) throws(AirlinkError) {
        switch sensor {
        case .irTemperature: self = .irTemperature(try SensorTagIRTemperature(gattBytes: bytes))
        case .accelerometer: self = .accelerometer(try SensorTagAcceleration(gattBytes: bytes))
        case .humidity: self = .humidity(try SensorTagHumidity(gattBytes: bytes))
        case .magnetometer: self = .magnetometer(try SensorTagMagneticField(gattBytes: bytes))
        case .barometer:
            self = .barometer(try SensorTagBarometerReading(gattBytes: bytes, calibration: calibration))
        case .gyroscope: self = .gyroscope(try SensorTagAngularVelocity(gattBytes: bytes))
        }
    }
}
