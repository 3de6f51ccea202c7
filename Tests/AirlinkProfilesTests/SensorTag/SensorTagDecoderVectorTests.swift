import AirlinkCore
import Testing

@testable import AirlinkProfiles

/// Decoder vectors: raw bytes with the value each formula gives, worked by hand from the datasheets and
/// TI's SensorTag User Guide (the derivation is in each test's comment).
@Suite struct SensorTagDecoderVectorTests {
    @Test func irTemperatureAtTheReferenceDieTemperature() throws {
        // Given 00 01 80 0C: object raw 0x0100 = 256, ambient raw 0x0C80 = 3200
        //   ambient = 3200 / 128 = 25.0 °C, so Tdie = 298.15 K = Tref and every (Tdie - Tref) term vanishes:
        //   S = S0 = 6.4e-14, Vos = b0 = -2.94e-5 V
        //   Vobj = 256 × 156.25 nV = 4.0e-5 V; x = Vobj - Vos = 6.94e-5 V
        //   f = x + 13.4·x² = 6.94e-5 + 13.4 × 4.81636e-9 = 6.946454e-5
        //   f / S = 1.0853834e9; Tdie⁴ = 298.15⁴ = 7.9020406e9
        //   Tobj = (8.9874240e9)^¼ = 307.899 K = 34.749 °C
        let reading = try SensorTagIRTemperature(gattBytes: [0x00, 0x01, 0x80, 0x0C])

        // Then
        #expect(reading.ambientCelsius == 25.0)
        #expect(reading.objectVoltage == 4.0e-5)
        #expect(abs(reading.objectCelsius - 34.749) < 0.001)
    }

    @Test func irTemperatureWithZeroVoltage() throws {
        // Given 00 00 00 0C: object raw 0, ambient raw 0x0C00 = 3072 → 24.0 °C, Tdie = 297.15 K, ΔT = -1
        //   S = 6.4e-14 × (1 - 1.75e-3 - 1.678e-5) = 6.388693e-14
        //   Vos = -2.94e-5 + 5.7e-7 + 4.63e-9 = -2.882537e-5; x = 0 - Vos = 2.882537e-5
        //   f = x + 13.4·x² = 2.883650e-5; f / S = 4.513678e8; Tdie⁴ = 7.796558e9
        //   Tobj = (8.247926e9)^¼ = 301.360 K = 28.210 °C (zero volts is not "object = die": b0 offsets it)
        let reading = try SensorTagIRTemperature(gattBytes: [0x00, 0x00, 0x00, 0x0C])

        // Then
        #expect(reading.ambientCelsius == 24.0)
        #expect(abs(reading.objectCelsius - 28.210) < 0.001)
    }

    @Test func irTemperatureBelowFreezing() throws {
        // Given 38 FF 00 FF: object raw 0xFF38 = -200, ambient raw 0xFF00 = -256 → -2.0 °C
        //   Tdie = 271.15 K, ΔT = -27: S = 6.4e-14 × (1 - 0.04725 - 0.0122326) = 6.019311e-14
        //   Vos = -2.94e-5 + 1.539e-5 + 3.375e-6 = -1.063473e-5
        //   Vobj = -200 × 156.25 nV = -3.125e-5; x = -2.061527e-5; f = x + 13.4·x² = -2.060958e-5
        //   f / S = -3.423909e8; Tdie⁴ = 5.405532e9; Tobj = (5.063141e9)^¼ = 266.750 K = -6.400 °C
        let reading = try SensorTagIRTemperature(gattBytes: [0x38, 0xFF, 0x00, 0xFF])

        // Then
        #expect(reading.ambientCelsius == -2.0)
        #expect(abs(reading.objectCelsius - (-6.400)) < 0.001)
    }

    @Test func humidity() throws {
        // Given 64 68 72 5A: temperature raw 0x6864 = 26724, humidity raw 0x5A72 = 23154
        //   T = -46.85 + 175.72 / 65536 × 26724 = -46.85 + 71.654377 = 24.804377 °C
        //   the humidity word's status bits are 10: 23154 & ~3 = 23152
        //   RH = -6 + 125 / 65536 × 23152 = -6 + 44.158936 = 38.158936 %
        let reading = try SensorTagHumidity(gattBytes: [0x64, 0x68, 0x72, 0x5A])

        // Then
        #expect(abs(reading.temperatureCelsius - 24.804377) < 1e-6)
        #expect(abs(reading.relativeHumidity - 38.158936) < 1e-6)
    }

    @Test func barometerWithItsCalibration() throws {
        // Given calibration C8 AF 00 64 C0 5D B8 0B 18 FC C0 5D D0 07 30 F8:
        //   c1 = 0xAFC8 = 45000, c2 = 0x6400 = 25600, c3 = 0x5DC0 = 24000, c4 = 0x0BB8 = 3000,
        //   c5 = 0xFC18 = -1000, c6 = 0x5DC0 = 24000, c7 = 0x07D0 = 2000, c8 = 0xF830 = -2000
        // and data 00 10 50 C3: Tr = 0x1000 = 4096, Pr = 0xC350 = 50000
        //   T = 45000 × 4096 / 2^24 + 25600 / 2^10 = 10.986328125 + 25 = 35.986328125 °C
        //   S = 24000 + 3000 × 4096 / 2^17 - 1000 × 4096² / 2^34 = 24000 + 93.75 - 0.9765625 = 24092.7734375
        //   O = 24000 × 2^14 + 2000 × 4096 / 8 - 2000 × 4096² / 2^19 = 393216000 + 1024000 - 64000 = 394176000
        //   P = (24092.7734375 × 50000 + 394176000) / 2^14 = 1598814671.875 / 16384 = 97583.9033 Pa
        let calibration = try SensorTagBarometerCalibration(gattBytes: [
            0xC8, 0xAF, 0x00, 0x64, 0xC0, 0x5D, 0xB8, 0x0B, 0x18, 0xFC, 0xC0, 0x5D, 0xD0, 0x07, 0x30, 0xF8,
        ])
        let reading = try SensorTagBarometerReading(gattBytes: [0x00, 0x10, 0x50, 0xC3], calibration: calibration)

        // Then the coefficients keep their signs, and the reading is the worked one
        #expect(calibration.c5 == -1000)
        #expect(calibration.c8 == -2000)
        #expect(calibration == .simulated)
        #expect(reading.temperatureCelsius == 35.986328125)
        #expect(abs(reading.pressurePascals - 97583.9033) < 0.0001)
        #expect(abs(reading.hectopascals - 975.839033) < 0.000001)
    }

    @Test func accelerometer() throws {
        // Given 40 C0 20: X = 0x40 = 64, Y = 0xC0 = -64, Z = 0x20 = 32; at ±2 g the KXTJ9 counts 64 per g
        //   X = 64 / 64 = 1 g, Y = -64 / 64 = -1 g, Z = 32 / 64 = 0.5 g
        let reading = try SensorTagAcceleration(gattBytes: [0x40, 0xC0, 0x20])
        // And 80 7F 00: -128 / 64 = -2 g, 127 / 64 = 1.984375 g
        let extremes = try SensorTagAcceleration(gattBytes: [0x80, 0x7F, 0x00])

        // Then
        #expect(reading.g == SensorTagVector(x: 1, y: -1, z: 0.5))
        #expect(abs(reading.metersPerSecondSquared.x - 9.80665) < 1e-12)
        #expect(extremes.g == SensorTagVector(x: -2, y: 1.984375, z: 0))
    }

    @Test func magnetometer() throws {
        // Given 00 04 00 FC 9A F1: X = 0x0400 = 1024, Y = 0xFC00 = -1024, Z = 0xF19A = -3686
        //   B = raw × 2000 / 65536 µT: X = 31.25, Y = -31.25, Z = -112.48779296875 µT
        let reading = try SensorTagMagneticField(gattBytes: [0x00, 0x04, 0x00, 0xFC, 0x9A, 0xF1])

        // Then
        #expect(reading.microtesla == SensorTagVector(x: 31.25, y: -31.25, z: -112.48779296875))
    }

    @Test func gyroscope() throws {
        // Given 83 00 00 80 FF 7F: X = 131, Y = 0x8000 = -32768, Z = 0x7FFF = 32767
        //   ω = raw × 500 / 65536 °/s: X = 0.99945068359375, Y = -250, Z = 249.99237060546875 °/s
        let reading = try SensorTagAngularVelocity(gattBytes: [0x83, 0x00, 0x00, 0x80, 0xFF, 0x7F])

        // Then
        #expect(reading.degreesPerSecond == SensorTagVector(x: 0.99945068359375, y: -250, z: 249.99237060546875))
        #expect(abs(reading.radiansPerSecond.y - (-4.363323129985824)) < 1e-12)
    }

    @Test func simpleKeys() throws {
        // Given 03: bit 0 (right) and bit 1 (left); 04: bit 2 (side)
        let both = try SensorTagKeys(gattBytes: [0x03])
        let side = try SensorTagKeys(gattBytes: [0x04])

        // Then
        #expect(both == [.left, .right])
        #expect(both.description == "left+right")
        #expect(side == .side)
        #expect(try SensorTagKeys(gattBytes: [0x00]).description == "none")
    }

    @Test func periodAndConfiguration() throws {
        // Given a period byte 0x1E (30 × 10 ms) and configuration bytes
        let period = try SensorTagPeriod(gattBytes: [0x1E])

        // Then the period is 300 ms, the IR sensor's minimum, and the configurations mean what TI says
        #expect(period.duration == .milliseconds(300))
        #expect(try period.validated(for: .irTemperature) == period)
        #expect(try SensorTagConfiguration(gattBytes: [0x02]).command(for: .barometer) == .readCalibration)
        #expect(try SensorTagConfiguration(gattBytes: [0x07]).command(for: .gyroscope) == .enableAxes(.all))
        #expect(try SensorTagConfiguration(gattBytes: [0x05]).command(for: .gyroscope) == .enableAxes([.x, .z]))
        #expect(try SensorTagConfiguration(gattBytes: [0x01]).command(for: .humidity) == .enable)
        #expect(try SensorTagConfiguration(gattBytes: [0x00]).command(for: .gyroscope) == .disable)
        #expect(SensorTagConfiguration.gyroscope([.y]).gattBytes == [0x02])
    }
}
