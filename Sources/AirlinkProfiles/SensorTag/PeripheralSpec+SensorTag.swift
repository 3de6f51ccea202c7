import AirlinkCore

extension PeripheralSpec {
    /// The address of the built-in simulated SensorTag, `BC:6A:29:00:00:03` (BC:6A:29 is one of TI's
    /// organisationally unique identifiers).
    public static let sensorTagID: DeviceID = "BC:6A:29:00:00:03"

    /// A TI CC2541 SensorTag (firmware 1.5), its sensors measuring a ``SensorTagPhysics`` script.
    ///
    /// Services, on the TI base `F000xxxx-0451-4000-B000-000000000000` (see ``SensorTagSensor``):
    /// IR temperature (AA00), accelerometer (AA10), humidity (AA20), magnetometer (AA30), barometer
    /// (AA40, with calibration AA43), gyroscope (AA50), each with data (read, notify), configuration
    /// (read, write) and period (read, write, units of 10 ms); Simple Keys (FFE0, key state FFE1:
    /// notify); Device Information (0x180A, ``SensorTagDeviceInformation``).
    ///
    /// As on the device, every sensor is off after power-on: its data read as zeros and nothing is
    /// notified. Writing 0x01 (the gyroscope: an axis mask, 0x07 for all) turns it on: reads then give
    /// the raw register values of the physics sampled at the current 10 ms tick of virtual time, and
    /// subscribed centrals get a notification every period (by default 1 s, 2 s for the magnetometer),
    /// the first one period after the sensor was turned on. Writing 0x02 to the barometer's
    /// configuration copies the calibration into F000AA43, which reads as 16 zeros before.
    ///
    /// A period below the sensor's minimum (300 ms for the IR sensor, 100 ms for the others) is refused
    /// with ATT error 0x80, TI's `ATT_ERR_INVALID_VALUE` (an application error), and the period is
    /// unchanged; a period or configuration of another length than one byte gets Invalid Attribute
    /// Value Length (0x0D). A configuration byte the sensor does not define is stored and ignored.
    ///
    /// Simplification: the real firmware turns the sensors off when the central disconnects; this one
    /// keeps them as configured until ``/AirlinkCore/TimelineAction/reset``.
    ///
    /// - Parameters:
    ///   - physics: what the sensors measure; a fixed seed by default, so tests can compute the values.
    ///   - calibration: the barometer's coefficients, or `nil` for a tag whose calibration reads as
    ///     zeros even after 0x02 (a faulty part).
    ///   - id: the address (``sensorTagID`` by default).
    ///   - position: where it stands.
    public static func sensorTag(
        physics: SensorTagPhysics = SensorTagPhysics(seed: 2541),
        calibration: SensorTagBarometerCalibration? = .simulated, id: DeviceID = sensorTagID,
        position: Position = .metres(8)
    ) -> PeripheralSpec {
        let coefficients = calibration ?? .simulated
        let information = SensorTagDeviceInformation.cc2541(address: id.address ?? BDAddress(value: 0xBC6A_2900_0003))
        return PeripheralSpec(name: "SensorTag", id: id, appearance: Appearance(0x0540), position: position) {
            Advertising(every: .milliseconds(100)) {
                LocalName("SensorTag")
                ServiceUUIDs(.sensorTagSimpleKeysService)
            }
            for sensor in SensorTagSensor.allCases {
                sensorTagService(sensor, physics: physics, calibration: calibration, coefficients: coefficients)
            }
            Service(.sensorTagSimpleKeysService) {
                Characteristic(.sensorTagSimpleKeysData, properties: .notify, value: SensorTagKeys())
                    .userDescription("Key Press State")
                    .updates(every: SensorTagFirmware.tick) { _, context in
                        SensorTagFirmware.tick(context, physics: physics, calibration: coefficients)
                    }
            }
            Service(.deviceInformation) {
                for (uuid, value) in information.characteristics {
                    Characteristic(uuid, properties: .read, value: value)
                }
            }
        }
    }

    /// One sensor's service.
    private static func sensorTagService(
        _ sensor: SensorTagSensor, physics: SensorTagPhysics, calibration: SensorTagBarometerCalibration?,
        coefficients: SensorTagBarometerCalibration
    ) -> Service {
        Service(sensor.serviceUUID) {
            Characteristic(
                sensor.dataUUID, properties: [.read, .notify],
                value: Array(repeating: UInt8(0), count: sensor.dataLength)
            )
            .userDescription("\(sensor) Data")
            .onRead { context in SensorTagFirmware.data(sensor, context, physics: physics, calibration: coefficients) }
            Characteristic(sensor.configurationUUID, properties: [.read, .write], value: SensorTagConfiguration.off)
                .userDescription("\(sensor) Conf.")
                .onWrite { context, value in try SensorTagFirmware.configure(sensor, value, context) }
            if sensor == .barometer {
                Characteristic(
                    .sensorTagBarometerCalibration, properties: .read, value: Array(repeating: UInt8(0), count: 16)
                )
                .userDescription("\(sensor) Calibr.")
                .onRead { context in
                    guard let calibration, context.state[SensorTagFirmware.calibratedKey, default: false] else {
                        return Array(repeating: 0, count: 16)
                    }
                    return calibration.gattBytes
                }
            }
            Characteristic(
                sensor.periodUUID, properties: [.read, .write], value: SensorTagPeriod.defaultPeriod(for: sensor)
            )
            .userDescription("\(sensor) Period")
            .onWrite { context, value in try SensorTagFirmware.setPeriod(sensor, value, context) }
        }
    }
}
