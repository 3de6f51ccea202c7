import AirlinkCore

/// One of the six sensors of the CC2541 SensorTag, with its characteristics and limits.
///
/// Each sensor is a TI vendor service with a data characteristic (read, notify), a configuration
/// characteristic (read, write) and, from firmware 1.5, a period characteristic (read, write, units of
/// 10 ms). The barometer adds a calibration characteristic. Source: TI's SensorTag User Guide for the
/// CC2541 (processors.wiki.ti.com) and `SensorTag.c` of BLE-CC254x; see Docs/SensorTag.md.
///
/// ```swift
/// let sensor = SensorTagSensor.humidity
/// sensor.dataUUID            // F000AA21-0451-4000-B000-000000000000
/// sensor.minimumPeriod       // 100 ms
/// ```
public enum SensorTagSensor: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The TMP006 infrared thermopile: object and die (ambient) temperature.
    case irTemperature
    /// The KXTJ9 three-axis accelerometer, ±2 g.
    case accelerometer
    /// The SHT21 humidity and temperature sensor.
    case humidity
    /// The MAG3110 three-axis magnetometer.
    case magnetometer
    /// The T5400 (EPCOS C953A) pressure and temperature sensor.
    case barometer
    /// The IMU-3000 three-axis gyroscope.
    case gyroscope

    /// The sensor and its chip, for messages: `"IR temperature (TMP006)"`.
    public var description: String {
        switch self {
        case .irTemperature: "IR temperature (TMP006)"
        case .accelerometer: "accelerometer (KXTJ9)"
        case .humidity: "humidity (SHT21)"
        case .magnetometer: "magnetometer (MAG3110)"
        case .barometer: "barometer (T5400)"
        case .gyroscope: "gyroscope (IMU-3000)"
        }
    }

    /// The 16-bit number of the service on the TI base: AA00, AA10, AA20, AA30, AA40, AA50.
    public var serviceNumber: UInt16 {
        switch self {
        case .irTemperature: 0xAA00
        case .accelerometer: 0xAA10
        case .humidity: 0xAA20
        case .magnetometer: 0xAA30
        case .barometer: 0xAA40
        case .gyroscope: 0xAA50
        }
    }

    /// The sensor's service UUID.
    public var serviceUUID: BluetoothUUID { .ti(serviceNumber) }

    /// The data characteristic (read, notify): service + 1.
    public var dataUUID: BluetoothUUID { .ti(serviceNumber + 1) }

    /// The configuration characteristic (read, write): service + 2.
    public var configurationUUID: BluetoothUUID { .ti(serviceNumber + 2) }

    /// The period characteristic (read, write): service + 3, except on the barometer (AA44, after the
    /// calibration at AA43).
    public var periodUUID: BluetoothUUID { .ti(serviceNumber + (self == .barometer ? 4 : 3)) }

    /// The calibration characteristic: only the barometer has one (F000AA43).
    public var calibrationUUID: BluetoothUUID? { self == .barometer ? .ti(0xAA43) : nil }

    /// The number of bytes of the data characteristic: 4, 3, 4, 6, 4, 6.
    public var dataLength: Int {
        switch self {
        case .irTemperature, .humidity, .barometer: 4
        case .accelerometer: 3
        case .magnetometer, .gyroscope: 6
        }
    }

    /// The shortest period the firmware accepts: 300 ms for the IR sensor (the TMP006 converts for
    /// about 250 ms, `TEMP_MEAS_DELAY` 275 ms in `SensorTag.c`), 100 ms for the others.
    ///
    /// Source: the CC2541 SensorTag User Guide, firmware 1.5 ("Resolution 10 ms. Range 300 ms (0x1E) to
    /// 2.55 sec (0xFF)" for the IR sensor, "Range 100 ms (0x0A) to 2.55 sec" for the others).
    public var minimumPeriod: Duration {
        self == .irTemperature ? .milliseconds(300) : .milliseconds(100)
    }

    /// The period after power-on or after a disconnection: 2 s for the magnetometer, 1 s for the others
    /// (`TEMP_DEFAULT_PERIOD` ... `GYRO_DEFAULT_PERIOD` in TI's `SensorTag.c`).
    public var defaultPeriod: Duration {
        self == .magnetometer ? .seconds(2) : .seconds(1)
    }

    /// The configuration that turns the sensor on: 0x01, or 0x07 (all three axes) for the gyroscope, as
    /// Deanna writes it.
    public var enableConfiguration: SensorTagConfiguration {
        self == .gyroscope ? .gyroscope(.all) : .on
    }

    /// The sensor whose service or characteristic has this UUID, if any.
    ///
    /// - Parameter uuid: a service, data, configuration, period or calibration UUID.
    public init?(uuid: BluetoothUUID) {
        guard let short = uuid.tiShort,
            let sensor = Self.allCases.first(where: { short & 0xFFF0 == $0.serviceNumber && short & 0xF <= 4 })
        else { return nil }
        if short & 0xF == 4 && sensor != .barometer { return nil }
        self = sensor
    }
}
