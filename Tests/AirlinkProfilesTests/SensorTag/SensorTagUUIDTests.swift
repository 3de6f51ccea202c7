import AirlinkCore
import Testing

@testable import AirlinkProfiles

@Suite struct SensorTagUUIDTests {
    @Test func sensorUUIDsLieOnTheTIBase() throws {
        // Given the attribute table of the CC2541 SensorTag User Guide, written out in full
        let table: [(BluetoothUUID, String)] = [
            (.sensorTagIRTemperatureService, "F000AA00-0451-4000-B000-000000000000"),
            (.sensorTagIRTemperatureData, "F000AA01-0451-4000-B000-000000000000"),
            (.sensorTagIRTemperatureConfiguration, "F000AA02-0451-4000-B000-000000000000"),
            (.sensorTagIRTemperaturePeriod, "F000AA03-0451-4000-B000-000000000000"),
            (.sensorTagAccelerometerService, "F000AA10-0451-4000-B000-000000000000"),
            (.sensorTagAccelerometerPeriod, "F000AA13-0451-4000-B000-000000000000"),
            (.sensorTagHumidityData, "F000AA21-0451-4000-B000-000000000000"),
            (.sensorTagHumidityPeriod, "F000AA23-0451-4000-B000-000000000000"),
            (.sensorTagMagnetometerConfiguration, "F000AA32-0451-4000-B000-000000000000"),
            (.sensorTagBarometerCalibration, "F000AA43-0451-4000-B000-000000000000"),
            (.sensorTagBarometerPeriod, "F000AA44-0451-4000-B000-000000000000"),
            (.sensorTagGyroscopeData, "F000AA51-0451-4000-B000-000000000000"),
            (.sensorTagGyroscopePeriod, "F000AA53-0451-4000-B000-000000000000"),
        ]
        // Then each constant parses from its written form and is not a Bluetooth SIG short UUID
        for (uuid, text) in table {
            #expect(uuid == (try BluetoothUUID(parsing: text)), "\(text)")
            #expect(uuid.uint16 == nil)
        }
        // And Simple Keys sits on the Bluetooth Base UUID
        #expect(BluetoothUUID.sensorTagSimpleKeysService.uint16 == 0xFFE0)
        #expect(BluetoothUUID.sensorTagSimpleKeysData.uint16 == 0xFFE1)
    }

    @Test func tiShortFormRoundTrips() throws {
        // Given a TI UUID, a SIG UUID and an unrelated vendor UUID
        let ti = try BluetoothUUID(parsing: "F000AA41-0451-4000-B000-000000000000")
        // Then only the TI one has a TI short form
        #expect(ti.tiShort == 0xAA41)
        #expect(BluetoothUUID.ti(0xAA41) == ti)
        #expect(BluetoothUUID.battery.tiShort == nil)
        #expect(BluetoothUUID.thermostatTemperature.tiShort == nil)
    }

    @Test func eachSensorNamesItsCharacteristics() {
        // Given every sensor
        for sensor in SensorTagSensor.allCases {
            // Then data, configuration and period follow the service, and the UUIDs lead back to the sensor
            let base = sensor.serviceNumber
            #expect(sensor.dataUUID.tiShort == base + 1)
            #expect(sensor.configurationUUID.tiShort == base + 2)
            #expect(sensor.periodUUID.tiShort == base + (sensor == .barometer ? 4 : 3))
            for uuid in [sensor.serviceUUID, sensor.dataUUID, sensor.configurationUUID, sensor.periodUUID] {
                #expect(SensorTagSensor(uuid: uuid) == sensor)
            }
        }
        // And only the barometer has a calibration characteristic, AA43
        #expect(SensorTagSensor.barometer.calibrationUUID == .sensorTagBarometerCalibration)
        #expect(SensorTagSensor.allCases.filter { $0.calibrationUUID != nil } == [.barometer])
        #expect(SensorTagSensor(uuid: .ti(0xAA14)) == nil)
        #expect(SensorTagSensor(uuid: .ti(0xAA60)) == nil)
        #expect(SensorTagSensor(uuid: .battery) == nil)
    }

    @Test func dataLengthsAndPeriodsFollowTheFirmware() throws {
        // Then the lengths are those of the attribute table, and the limits those of firmware 1.5
        #expect(SensorTagSensor.allCases.map(\.dataLength) == [4, 3, 4, 6, 4, 6])
        #expect(SensorTagSensor.irTemperature.minimumPeriod == .milliseconds(300))
        #expect(SensorTagSensor.humidity.minimumPeriod == .milliseconds(100))
        #expect(SensorTagSensor.magnetometer.defaultPeriod == .seconds(2))
        #expect(SensorTagSensor.gyroscope.defaultPeriod == .seconds(1))
        #expect(SensorTagPeriod.defaultPeriod(for: .magnetometer).gattBytes == [0xC8])
        #expect(SensorTagPeriod.defaultPeriod(for: .accelerometer).gattBytes == [0x64])
        // And each sensor's "on" byte is one its configuration accepts
        #expect(SensorTagSensor.allCases.map(\.enableConfiguration.rawValue) == [1, 1, 1, 1, 1, 7])
        for sensor in SensorTagSensor.allCases {
            #expect(try sensor.enableConfiguration.command(for: sensor) != .disable)
        }
    }
}
