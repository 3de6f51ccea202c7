import AirlinkCore

/// The UUIDs of the TI CC2541 SensorTag (the first SensorTag, the device of YmsCoreBluetooth's Deanna app).
///
/// TI's vendor services sit on the TI base UUID `F000xxxx-0451-4000-B000-000000000000`: the 16-bit number
/// `xxxx` is placed in bits 96...111, exactly as an assigned number sits on the Bluetooth Base UUID, so
/// `F000AA01-0451-4000-B000-000000000000` is the IR temperature data. Simple Keys (`FFE0`/`FFE1`) is a
/// 16-bit service on the Bluetooth Base UUID.
///
/// Source: TI's "SensorTag User Guide" attribute table for the CC2541 SensorTag (processors.wiki.ti.com,
/// firmware 1.4/1.5), cross-checked against Deanna's `TISensorTag.h` (which predates the 1.5 period
/// characteristics) and TI's `SensorTag.c` of BLE-CC254x. See Docs/SensorTag.md.
extension BluetoothUUID {
    /// The TI base UUID, F0000000-0451-4000-B000-000000000000.
    public static let tiBase = BluetoothUUID(value: 0xF000_0000_0451_4000_B000_0000_0000_0000)

    /// A UUID on the TI base: `F000xxxx-0451-4000-B000-000000000000`.
    ///
    /// - Parameter short: the 16-bit number `xxxx`, for example `0xAA01`.
    public static func ti(_ short: UInt16) -> BluetoothUUID {
        BluetoothUUID(value: tiBase.value | (UInt128(short) << 96))
    }

    /// The 16-bit number of a UUID on the TI base, or `nil` if the UUID is not on it.
    public var tiShort: UInt16? {
        let mask: UInt128 = ~(UInt128(0xFFFF) << 96)
        guard value & mask == Self.tiBase.value else { return nil }
        return UInt16(truncatingIfNeeded: value >> 96)
    }

    // MARK: IR temperature (TMP006)

    /// IR Temperature service, F000AA00.
    public static let sensorTagIRTemperatureService = ti(0xAA00)
    /// IR temperature data (read, notify; 4 bytes: object LSB, object MSB, ambient LSB, ambient MSB), F000AA01.
    public static let sensorTagIRTemperatureData = ti(0xAA01)
    /// IR temperature configuration (read, write; 0x00 off, 0x01 on), F000AA02.
    public static let sensorTagIRTemperatureConfiguration = ti(0xAA02)
    /// IR temperature period (read, write; units of 10 ms, firmware 1.5), F000AA03.
    public static let sensorTagIRTemperaturePeriod = ti(0xAA03)

    // MARK: Accelerometer (KXTJ9)

    /// Accelerometer service, F000AA10.
    public static let sensorTagAccelerometerService = ti(0xAA10)
    /// Accelerometer data (read, notify; 3 signed bytes X, Y, Z), F000AA11.
    public static let sensorTagAccelerometerData = ti(0xAA11)
    /// Accelerometer configuration (read, write; 0x00 off, 0x01 on), F000AA12.
    public static let sensorTagAccelerometerConfiguration = ti(0xAA12)
    /// Accelerometer period (read, write; units of 10 ms), F000AA13.
    public static let sensorTagAccelerometerPeriod = ti(0xAA13)

    // MARK: Humidity (SHT21)

    /// Humidity service, F000AA20.
    public static let sensorTagHumidityService = ti(0xAA20)
    /// Humidity data (read, notify; 4 bytes: temperature LSB, MSB, humidity LSB, MSB), F000AA21.
    public static let sensorTagHumidityData = ti(0xAA21)
    /// Humidity configuration (read, write; 0x00 off, 0x01 on), F000AA22.
    public static let sensorTagHumidityConfiguration = ti(0xAA22)
    /// Humidity period (read, write; units of 10 ms, firmware 1.5), F000AA23.
    public static let sensorTagHumidityPeriod = ti(0xAA23)

    // MARK: Magnetometer (MAG3110)

    /// Magnetometer service, F000AA30.
    public static let sensorTagMagnetometerService = ti(0xAA30)
    /// Magnetometer data (read, notify; 3 × signed 16-bit little-endian X, Y, Z), F000AA31.
    public static let sensorTagMagnetometerData = ti(0xAA31)
    /// Magnetometer configuration (read, write; 0x00 off, 0x01 on), F000AA32.
    public static let sensorTagMagnetometerConfiguration = ti(0xAA32)
    /// Magnetometer period (read, write; units of 10 ms), F000AA33.
    public static let sensorTagMagnetometerPeriod = ti(0xAA33)

    // MARK: Barometer (T5400 / C953A)

    /// Barometer service, F000AA40.
    public static let sensorTagBarometerService = ti(0xAA40)
    /// Barometer data (read, notify; signed 16-bit raw temperature, unsigned 16-bit raw pressure), F000AA41.
    public static let sensorTagBarometerData = ti(0xAA41)
    /// Barometer configuration (read, write; 0x00 off, 0x01 on, 0x02 read the calibration into F000AA43), F000AA42.
    public static let sensorTagBarometerConfiguration = ti(0xAA42)
    /// Barometer calibration (read; 16 bytes c1...c8, little-endian), F000AA43.
    public static let sensorTagBarometerCalibration = ti(0xAA43)
    /// Barometer period (read, write; units of 10 ms, firmware 1.5), F000AA44.
    public static let sensorTagBarometerPeriod = ti(0xAA44)

    // MARK: Gyroscope (IMU-3000)

    /// Gyroscope service, F000AA50.
    public static let sensorTagGyroscopeService = ti(0xAA50)
    /// Gyroscope data (read, notify; 3 × signed 16-bit little-endian X, Y, Z), F000AA51.
    public static let sensorTagGyroscopeData = ti(0xAA51)
    /// Gyroscope configuration (read, write; axis bitmask: bit 0 X, bit 1 Y, bit 2 Z; 0x00 off), F000AA52.
    public static let sensorTagGyroscopeConfiguration = ti(0xAA52)
    /// Gyroscope period (read, write; units of 10 ms, firmware 1.5), F000AA53.
    public static let sensorTagGyroscopePeriod = ti(0xAA53)

    // MARK: Test (firmware self-test; listed for completeness)

    /// Test service, F000AA60 (self-test result and test mode; Deanna lists it, the sensors do not use it).
    public static let sensorTagTestService = ti(0xAA60)
    /// Test data (read; the self-test result bitmask), F000AA61.
    public static let sensorTagTestData = ti(0xAA61)
    /// Test configuration (read, write; bit 7 enters test mode), F000AA62.
    public static let sensorTagTestConfiguration = ti(0xAA62)

    // MARK: Simple Keys

    /// Simple Keys service, FFE0 (on the Bluetooth Base UUID).
    public static let sensorTagSimpleKeysService = BluetoothUUID(0xFFE0)
    /// Key press state (notify; one byte, bit 0 right, bit 1 left, bit 2 side), FFE1.
    public static let sensorTagSimpleKeysData = BluetoothUUID(0xFFE1)
}
