import AirlinkCore
import Testing

@testable import AirlinkProfiles

@Suite struct SensorTagErrorTests {
    /// The error `body` throws, or `nil`.
    func error(_ body: () throws(AirlinkError) -> Void) -> AirlinkError? {
        do throws(AirlinkError) {
            try body()
            return nil
        } catch { return error }
    }

    @Test func wrongLengthsNameTheSensorTheLengthAndTheOffset() {
        // Given each decoder and a payload one byte short
        let cases: [(String, Int, (([UInt8]) throws(AirlinkError) -> Void))] = [
            (
                "IR temperature (TMP006) data", 4,
                { b throws(AirlinkError) in _ = try SensorTagIRTemperature(gattBytes: b) }
            ),
            ("humidity (SHT21) data", 4, { b throws(AirlinkError) in _ = try SensorTagHumidity(gattBytes: b) }),
            ("barometer (T5400) data", 4, { b throws(AirlinkError) in _ = try SensorTagBarometerData(gattBytes: b) }),
            (
                "barometer (T5400) calibration", 16,
                { b throws(AirlinkError) in _ = try SensorTagBarometerCalibration(gattBytes: b) }
            ),
            (
                "accelerometer (KXTJ9) data", 3,
                { b throws(AirlinkError) in _ = try SensorTagAcceleration(gattBytes: b) }
            ),
            (
                "magnetometer (MAG3110) data", 6,
                { b throws(AirlinkError) in _ = try SensorTagMagneticField(gattBytes: b) }
            ),
            (
                "gyroscope (IMU-3000) data", 6,
                { b throws(AirlinkError) in _ = try SensorTagAngularVelocity(gattBytes: b) }
            ),
            ("simple keys data", 1, { b throws(AirlinkError) in _ = try SensorTagKeys(gattBytes: b) }),
        ]
        for (name, length, decode) in cases {
            for count in [length - 1, length + 1] {
                // When decoded
                let failure = error { () throws(AirlinkError) in try decode([UInt8](repeating: 0x01, count: count)) }

                // Then the error is malformedData naming the sensor, the expected length and the offset
                #expect(failure?.code == .malformedData, "\(name)")
                let message = failure?.message ?? ""
                #expect(message.contains(name), "\(message)")
                #expect(message.contains("takes \(length) bytes, not \(count)"), "\(message)")
                #expect(message.contains("offset \(min(count, length))"), "\(message)")
            }
        }
    }

    @Test func barometerWithoutCalibrationFailsTyped() {
        // Given valid barometer data but no calibration, then the zeros a tag sends before config 0x02
        let missing = error { () throws(AirlinkError) in
            _ = try SensorTagBarometerReading(gattBytes: [0x00, 0x10, 0x50, 0xC3], calibration: nil)
        }
        let zeros = error { () throws(AirlinkError) in
            let calibration = try SensorTagBarometerCalibration(gattBytes: [UInt8](repeating: 0, count: 16))
            _ = try SensorTagBarometerReading(gattBytes: [0x00, 0x10, 0x50, 0xC3], calibration: calibration)
        }

        // Then both are invalidArgument telling the client to write 0x02 and read the calibration
        for failure in [missing, zeros] {
            #expect(failure?.code == .invalidArgument)
            #expect(failure?.message.contains("Write 0x02 to the barometer configuration (F000AA42)") == true)
        }
        #expect(zeros?.message.contains("zeros") == true)
        // And a wrong length is still reported as such, before the calibration is looked at
        let short = error { () throws(AirlinkError) in
            _ = try SensorTagBarometerReading(gattBytes: [0x00], calibration: nil)
        }
        #expect(short?.code == .malformedData)
    }

    @Test func periodNotAWholeNumberOfUnitsSuggestsOneTheByteCanSay() {
        // Given periods that are not whole numbers of 10 ms: one far below a unit, one between 120 and 130 ms
        let tiny = error { () throws(AirlinkError) in _ = try SensorTagPeriod(.microseconds(100), for: .humidity) }
        let near = error { () throws(AirlinkError) in _ = try SensorTagPeriod(.milliseconds(127), for: .humidity) }

        // Then each suggests the whole number of units below it, and never 0 ms
        #expect(tiny?.code == .invalidArgument)
        #expect(tiny?.message.contains("(try 10 ms)") == true, "\(String(describing: tiny))")
        #expect(near?.message.contains("(try 120 ms)") == true, "\(String(describing: near))")
    }

    @Test func periodBelowTheMinimumNamesTheValueAndTheLimit() {
        // Given a period below the IR sensor's minimum, and a written byte below the humidity sensor's
        let ir = error { () throws(AirlinkError) in _ = try SensorTagPeriod(.milliseconds(200), for: .irTemperature) }
        let written = error { () throws(AirlinkError) in
            try SensorTagPeriod(gattBytes: [0x05]).validated(for: .humidity)
        }

        // Then both are invalidArgument naming the value and the limit
        #expect(ir?.code == .invalidArgument)
        #expect(ir?.message.contains("200 ms") == true)
        #expect(ir?.message.contains("minimum of 300 ms") == true)
        #expect(written?.code == .invalidArgument)
        #expect(written?.message.contains("50 ms (0x5)") == true)
        #expect(written?.message.contains("minimum of 100 ms (0xA)") == true)
        // And the IR sensor's minimum is not the others'
        #expect(error { () throws(AirlinkError) in _ = try SensorTagPeriod(.milliseconds(200), for: .humidity) } == nil)
    }

    @Test func periodsOffTheGridOrTooLongAreRejected() {
        // Given 155 ms, 2.56 s, a negative period and a two-byte payload
        let offGrid = error { () throws(AirlinkError) in _ = try SensorTagPeriod(.milliseconds(155), for: .gyroscope) }
        let tooLong = error { () throws(AirlinkError) in _ = try SensorTagPeriod(.milliseconds(2560), for: .gyroscope) }
        let negative = error { () throws(AirlinkError) in _ = try SensorTagPeriod(.milliseconds(-10), for: .gyroscope) }
        let twoBytes = error { () throws(AirlinkError) in _ = try SensorTagPeriod(gattBytes: [0x0A, 0x00]) }

        // Then
        #expect(offGrid?.code == .invalidArgument)
        #expect(offGrid?.message.contains("try 150 ms") == true)
        #expect(tooLong?.code == .invalidArgument)
        #expect(tooLong?.message.contains("2550 ms") == true)
        #expect(negative?.code == .invalidArgument)
        #expect(twoBytes?.code == .malformedData)
    }

    @Test func undefinedConfigurationsAreRejected() {
        // Given calibration asked of the humidity sensor, and an axis mask beyond Z
        let humidity = error { () throws(AirlinkError) in
            _ = try SensorTagConfiguration.readCalibration.command(for: .humidity)
        }
        let gyro = error { () throws(AirlinkError) in
            _ = try SensorTagConfiguration(rawValue: 0x08).command(for: .gyroscope)
        }

        // Then both are invalidArgument saying what the sensor takes
        #expect(humidity?.code == .invalidArgument)
        #expect(humidity?.message.contains("0x00 (off) or 0x01 (on), not 0x02") == true)
        #expect(gyro?.message.contains("axis mask") == true)
    }

    @Test func impossibleReadingsAreMalformed() {
        // Given a TMP006 voltage so negative the object would be below 0 K, and keys bits the tag never sets
        let tmp006 = error { () throws(AirlinkError) in
            _ = try SensorTagIRTemperature(gattBytes: [0x00, 0x80, 0x80, 0x0C])
        }
        let keys = error { () throws(AirlinkError) in _ = try SensorTagKeys(gattBytes: [0x08]) }

        // Then both are malformedData at offset 0
        #expect(tmp006?.code == .malformedData)
        #expect(tmp006?.message.contains("below absolute zero") == true)
        #expect(tmp006?.message.contains("offset 0") == true)
        #expect(keys?.code == .malformedData)
        #expect(keys?.message.contains("0x8") == true)
    }
}
