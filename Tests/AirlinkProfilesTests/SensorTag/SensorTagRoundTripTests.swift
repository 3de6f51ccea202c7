import AirlinkCore
import Testing

@testable import AirlinkProfiles

/// Encoder → bytes → decoder round trips across each sensor's range, within the documented rounding bound.
@Suite struct SensorTagRoundTripTests {
    /// `lower`, `lower + step`, ... up to `upper`.
    func grid(_ lower: Double, _ upper: Double, _ step: Double) -> [Double] {
        Array(stride(from: lower, through: upper, by: step))
    }

    @Test func irTemperatureInvertsTheObjectFormula() throws {
        // Given die temperatures over the TMP006's range and objects from -40 to 125 °C
        var worstObject = 0.0
        var worstAmbient = 0.0
        for die in grid(-40, 125, 2.5) {
            for object in grid(-40, 125, 1.25) {
                // When the simulated device encodes them and a client decodes the bytes
                let bytes = SensorTagIRTemperature(objectCelsius: object, ambientCelsius: die).gattBytes
                let decoded = try SensorTagIRTemperature(gattBytes: bytes)

                // Then both come back within the rounding bound: 1/64 °C and 0.03 °C
                worstAmbient = max(worstAmbient, abs(decoded.ambientCelsius - die))
                worstObject = max(worstObject, abs(decoded.objectCelsius - object))
            }
        }
        #expect(worstAmbient <= 1.0 / 64)
        #expect(worstObject <= 0.03, "worst object error \(worstObject) °C")
    }

    @Test func irTemperatureVoltageIsTheExactInverse() throws {
        // Given the unrounded inverse at a few die temperatures
        for die in [-40.0, 0, 25, 60, 125] {
            for object in [-40.0, -10, 20, 37, 80, 125] {
                let voltage = SensorTagIRTemperature.voltage(objectCelsius: object, dieCelsius: die)
                // Then the forward formula gives the object back to rounding noise
                let back = try SensorTagIRTemperature.objectCelsius(voltage: voltage, dieCelsius: die)
                #expect(abs(back - object) < 1e-9, "die \(die) object \(object) gave \(back)")
            }
        }
    }

    @Test func irTemperatureSaturatesOutsideItsRange() throws {
        // Given a die beyond the TMP006's range and an object far too hot for the voltage register
        let reading = SensorTagIRTemperature(objectCelsius: 2000, ambientCelsius: 300)

        // Then the die saturates at 125 °C and the voltage at its largest count, and the bytes still decode
        #expect(reading.ambientCelsius == 125)
        #expect(reading.rawObjectVoltage == .max)
        #expect(try SensorTagIRTemperature(gattBytes: reading.gattBytes) == reading)
        // And an object below absolute zero gives the lowest count that still decodes
        let cold = SensorTagIRTemperature(objectCelsius: -400, ambientCelsius: 25)
        #expect(try SensorTagIRTemperature(gattBytes: cold.gattBytes).objectCelsius < -200)
    }

    @Test func humidityRoundsToTheSHT21Resolution() throws {
        // Given temperatures over the SHT21's range and humidities 0 ... 100 %
        var worstTemperature = 0.0
        var worstHumidity = 0.0
        for temperature in grid(-40, 125, 0.37) {
            for humidity in grid(0, 100, 0.7) {
                // When encoded and decoded
                let encoded = SensorTagHumidity(temperatureCelsius: temperature, relativeHumidity: humidity)
                let decoded = try SensorTagHumidity(gattBytes: encoded.gattBytes)

                // Then the humidity word carries the status bit, and the values are within half a step
                #expect(decoded.rawHumidity & 0x3 == 0x2)
                worstTemperature = max(worstTemperature, abs(decoded.temperatureCelsius - temperature))
                worstHumidity = max(worstHumidity, abs(decoded.relativeHumidity - humidity))
            }
        }
        #expect(worstTemperature <= 175.72 / 16384 / 2 + 1e-9)
        #expect(worstHumidity <= 125.0 / 4096 / 2 + 1e-9)
    }

    @Test func barometerInvertsTheCompensation() throws {
        // Given the simulated calibration and readings over the T5400's range
        let calibration = SensorTagBarometerCalibration.simulated
        var worstTemperature = 0.0
        var worstPressure = 0.0
        for temperature in grid(-40, 85, 1.7) {
            for pressure in grid(30_000, 110_000, 613) {
                // When encoded and decoded with the calibration read back from its bytes
                let data = calibration.data(temperatureCelsius: temperature, pressurePascals: pressure)
                let readBack = try SensorTagBarometerCalibration(gattBytes: calibration.gattBytes)
                let reading = try SensorTagBarometerReading(gattBytes: data.gattBytes, calibration: readBack)

                // Then both are within half a count: c1 / 2^25 °C, and half of S / 2^14 Pa at that Tr
                worstTemperature = max(worstTemperature, abs(reading.temperatureCelsius - temperature))
                let halfCount = calibration.sensitivity(rawTemperature: data.rawTemperature) / 32768
                #expect(abs(reading.pressurePascals - pressure) <= halfCount + 1e-9)
                worstPressure = max(worstPressure, abs(reading.pressurePascals - pressure))
            }
        }
        #expect(worstTemperature <= 45000.0 / 33_554_432 + 1e-12)
        #expect(worstPressure < 0.8)
    }

    @Test func motionSensorsRoundToACount() throws {
        // Given values across each sensor's range, per axis
        for value in grid(-1, 1, 0.013) {
            let g = SensorTagVector(x: 2 * value, y: -1.9 * value, z: 0.5 + value)
            let field = SensorTagVector(x: 999 * value, y: -50 * value, z: 44 + value)
            let rate = SensorTagVector(x: 249 * value, y: -3 * value, z: 120 * value)

            // When encoded and decoded
            let acceleration = try SensorTagAcceleration(gattBytes: SensorTagAcceleration(g: g).gattBytes)
            let magnetic = try SensorTagMagneticField(gattBytes: SensorTagMagneticField(microtesla: field).gattBytes)
            let gyro = try SensorTagAngularVelocity(
                gattBytes: SensorTagAngularVelocity(degreesPerSecond: rate).gattBytes)

            // Then each is within half a count (the accelerometer's +2 g end saturates at 127/64)
            let clampedG = SensorTagVector(x: min(g.x, 127.0 / 64), y: min(g.y, 127.0 / 64), z: min(g.z, 127.0 / 64))
            #expect(acceleration.g.maximumDifference(to: clampedG) <= 1.0 / 128)
            #expect(magnetic.microtesla.maximumDifference(to: field) <= 2000.0 / 65536 / 2)
            #expect(gyro.degreesPerSecond.maximumDifference(to: rate) <= 500.0 / 65536 / 2)
        }
    }

    @Test func motionSensorsSaturate() {
        // Given values beyond the ranges
        let acceleration = SensorTagAcceleration(g: SensorTagVector(x: 3, y: -3, z: .infinity))
        let magnetic = SensorTagMagneticField(microtesla: SensorTagVector(x: 1500, y: -1500, z: .nan))
        let gyro = SensorTagAngularVelocity(degreesPerSecond: SensorTagVector(x: 300, y: -300, z: 0))

        // Then they stop at the register limits
        #expect([acceleration.rawX, acceleration.rawY, acceleration.rawZ] == [127, -128, 127])
        #expect([magnetic.rawX, magnetic.rawY, magnetic.rawZ] == [.max, .min, 0])
        #expect([gyro.rawX, gyro.rawY] == [.max, .min])
        // And disabled gyroscope axes read zero
        #expect(gyro.masked(to: [.y]) == SensorTagAngularVelocity(rawX: 0, rawY: .min, rawZ: 0))
    }

    @Test func bytesSurviveEveryValueType() throws {
        // Given arbitrary bytes of the right length for each data type
        let samples: [[UInt8]] = [[0x12, 0x34, 0x56, 0x78], [0xFF, 0x7F, 0x00, 0x80], [0x01, 0x00, 0xFE, 0xFF]]
        for bytes in samples {
            // Then decode → encode gives the same bytes (the values keep the raw registers)
            #expect(try SensorTagHumidity(gattBytes: bytes).gattBytes == bytes)
            #expect(try SensorTagBarometerData(gattBytes: bytes).gattBytes == bytes)
            #expect(try SensorTagAcceleration(gattBytes: Array(bytes.prefix(3))).gattBytes == Array(bytes.prefix(3)))
            let six = bytes + bytes.prefix(2)
            #expect(try SensorTagMagneticField(gattBytes: six).gattBytes == six)
            #expect(try SensorTagAngularVelocity(gattBytes: six).gattBytes == six)
        }
        #expect(try SensorTagIRTemperature(gattBytes: [0x34, 0x12, 0x00, 0x0C]).gattBytes == [0x34, 0x12, 0x00, 0x0C])
        for byte in UInt8(0)...7 { #expect(try SensorTagKeys(gattBytes: [byte]).gattBytes == [byte]) }
        let calibration: [UInt8] = Array(1...16)
        #expect(try SensorTagBarometerCalibration(gattBytes: calibration).gattBytes == calibration)
    }

    @Test func everyValidPeriodRoundTrips() throws {
        // Given every period from each sensor's minimum to 2.55 s
        for sensor in SensorTagSensor.allCases {
            for milliseconds in stride(from: 100, through: 2550, by: 10) {
                let duration = Duration.milliseconds(milliseconds)
                guard duration >= sensor.minimumPeriod else { continue }
                // Then it encodes to its 10 ms units and decodes back
                let period = try SensorTagPeriod(duration, for: sensor)
                #expect(period.gattBytes == [UInt8(milliseconds / 10)])
                #expect(try SensorTagPeriod(gattBytes: period.gattBytes).validated(for: sensor).duration == duration)
            }
        }
    }
}
