import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkProfiles

@Suite struct SensorTagPhysicsTests {
    /// Times across the first two hours, not on round numbers.
    let times: [Duration] = stride(from: 0, through: 7200, by: 0.7).map { Duration.milliseconds(Int64($0 * 1000)) }

    @Test func sameSeedSameValuesInAnyOrder() {
        // Given two worlds with the same seed and one with another
        let first = SensorTagPhysics(seed: 42)
        let second = SensorTagPhysics(seed: 42)
        let other = SensorTagPhysics(seed: 43)
        let sampleTimes = [Duration.seconds(3), .milliseconds(27_350), .seconds(600), .seconds(3601)]

        // When one is asked forwards and the other backwards
        let forwards = sampleTimes.map { first.sample(at: $0) }
        let backwards = sampleTimes.reversed().map { second.sample(at: $0) }.reversed()

        // Then the values agree exactly, and another seed gives other noise
        #expect(Array(backwards) == forwards)
        #expect(sampleTimes.map { other.sample(at: $0) } != forwards)
    }

    @Test func seedComesFromTheEnvironmentsRandomSource() {
        // Given two random sources with the same seed, as two runs of one simulation seed would have
        let physics = SensorTagPhysics(random: SeededRandomSource(seed: 7))
        let again = SensorTagPhysics(random: SeededRandomSource(seed: 7))

        // Then both draw the same noise seed, so the runs see the same world
        #expect(physics.seed == again.seed)
        #expect(physics.sample(at: .seconds(30)) == again.sample(at: .seconds(30)))
    }

    @Test func valuesStayPlausibleForTwoHours() {
        // Given the default scenario with noise
        let physics = SensorTagPhysics(seed: 2024)
        let earthField = SensorTagScenario.handHeldInWarmingRoom.earthFieldMicrotesla.magnitude
        for time in times {
            // When sampled
            let sample = physics.sample(at: time)

            // Then every value is within what the room and the hand can give
            #expect((18.8...23.2).contains(sample.dieCelsius), "\(time)")
            #expect((18.8...23.2).contains(sample.humidityTemperatureCelsius), "\(time)")
            #expect((sample.dieCelsius - 2.0...33.2).contains(sample.objectCelsius), "\(time)")
            #expect((38...51).contains(sample.relativeHumidity), "\(time)")
            #expect((101_100...101_340).contains(sample.pressurePascals), "\(time)")
            #expect(abs(sample.acceleration.magnitude - 1) < 0.03, "\(time)")
            #expect(abs(sample.magneticField.magnitude - earthField) < 2, "\(time)")
            #expect(sample.angularVelocity.magnitude < 100, "\(time)")
        }
    }

    @Test func valuesChangeSmoothly() {
        // Given samples 10 ms apart through a whole cycle, hand-held part included
        let physics = SensorTagPhysics(seed: 5)
        var previous = physics.sample(at: .zero)
        for step in 1...12_000 {
            let sample = physics.sample(at: .milliseconds(step * 10))

            // Then no value jumps between neighbouring samples (the thumb's 15.5 °C in 1 s, smoothstep
            // peaking at 1.5 times the mean slope, is the steepest: 0.23 °C per 10 ms)
            #expect(abs(sample.dieCelsius - previous.dieCelsius) < 0.002)
            #expect(abs(sample.objectCelsius - previous.objectCelsius) < 0.25)
            #expect(abs(sample.pressurePascals - previous.pressurePascals) < 0.1)
            #expect(sample.acceleration.maximumDifference(to: previous.acceleration) < 0.02)
            #expect(sample.magneticField.maximumDifference(to: previous.magneticField) < 1)
            #expect(sample.angularVelocity.maximumDifference(to: previous.angularVelocity) < 1.5)
            previous = sample
        }
    }

    @Test func roomWarmsAndDries() {
        // Given the noiseless room
        let physics = SensorTagPhysics(seed: 1, scenario: SensorTagScenario.handHeldInWarmingRoom.noiseless)

        // Then after one time constant (20 min) 63 % of the 4 °C rise has happened: 19 + 4(1 - 1/e) = 21.528 °C
        #expect(abs(physics.sample(at: .seconds(1200)).dieCelsius - 21.528) < 0.001)
        // And with constant water content RH = 50 % × es(19) / es(21.528); Magnus: es(19) = 21.921 hPa,
        // es(21.528) = 25.626 hPa, so RH = 42.77 %; towards 23 °C it tends to 50 × 21.921 / 28.025 = 39.11 %
        #expect(abs(physics.sample(at: .seconds(1200)).relativeHumidity - 42.77) < 0.01)
        #expect(abs(physics.sample(at: .seconds(20 * 3600)).relativeHumidity - 39.11) < 0.01)
        // And the barometer falls 100 Pa an hour
        #expect(abs(physics.sample(at: .seconds(1800)).pressurePascals - 101_275) < 1e-6)
    }

    @Test func thumbWarmsTheIRSensorsView() {
        // Given the noiseless script
        let physics = SensorTagPhysics(seed: 1, scenario: SensorTagScenario.handHeldInWarmingRoom.noiseless)

        // Then the IR sensor sees the background (air - 1.5 °C) except under the thumb (25 ... 35 s)
        let before = physics.sample(at: .seconds(20))
        #expect(abs(before.objectCelsius - (before.dieCelsius - 1.5)) < 1e-9)
        #expect(abs(physics.sample(at: .seconds(30)).objectCelsius - 33) < 1e-9)
        let halfway = physics.sample(at: .milliseconds(25_500)).objectCelsius
        #expect(halfway > before.objectCelsius && halfway < 33)
    }

    @Test func restingTagFeelsGravityAndTheEarthsField() {
        // Given the tag at rest on the desk, heading 30° from north
        let physics = SensorTagPhysics(seed: 1, scenario: SensorTagScenario.handHeldInWarmingRoom.noiseless)
        let sample = physics.sample(at: .seconds(5))

        // Then it reads 1 g up, no rotation, and the field (20 N, 0, -44 up) turned by -30° about Z:
        //   x = cos 30° × 20 = 17.3205, y = -sin 30° × 20 = -10, z = -44
        #expect(sample.acceleration.maximumDifference(to: SensorTagVector(x: 0, y: 0, z: 1)) < 1e-12)
        #expect(sample.angularVelocity.magnitude < 1e-12)
        #expect(sample.magneticField.maximumDifference(to: SensorTagVector(x: 17.320508, y: -10, z: -44)) < 1e-6)
    }

    @Test func gyroscopeAgreesWithHowGravityAndFieldTurn() {
        // Given the noiseless tag in the hand
        let physics = SensorTagPhysics(seed: 1, scenario: SensorTagScenario.handHeldInWarmingRoom.noiseless)
        for milliseconds in stride(from: 10_500, to: 59_500, by: 1_250) {
            let now = physics.sample(at: .milliseconds(milliseconds))
            let later = physics.sample(at: .milliseconds(milliseconds) + .microseconds(100))
            let earlier = physics.sample(at: .milliseconds(milliseconds) - .microseconds(100))

            // Then a world-fixed vector v seen from the tag turns as dv/dt = -ω × v (ω in rad/s), for both
            // gravity and the Earth's field
            let omega = (Double.pi / 180) * now.angularVelocity
            for (v, vLater, vEarlier) in [
                (now.acceleration, later.acceleration, earlier.acceleration),
                (now.magneticField, later.magneticField, earlier.magneticField),
            ] {
                let derivative = 5000 * (vLater - vEarlier)
                let expected = SensorTagVector(
                    x: -(omega.y * v.z - omega.z * v.y), y: -(omega.z * v.x - omega.x * v.z),
                    z: -(omega.x * v.y - omega.y * v.x))
                #expect(
                    derivative.maximumDifference(to: expected) < 1e-4 * max(1, v.magnitude), "t = \(milliseconds) ms")
            }
        }
        // And the hand really turns the tag
        #expect(physics.sample(at: .seconds(30)).angularVelocity.magnitude > 5)
    }

    @Test func keysFollowTheScript() {
        // Given the default script, repeated every 120 s
        let physics = SensorTagPhysics(seed: 1)

        // Then the state at a few times, and every change within two cycles, are the scripted ones
        #expect(physics.keys(at: .milliseconds(5_200)) == .left)
        #expect(physics.keys(at: .milliseconds(40_500)) == [.left, .right])
        #expect(physics.keys(at: .seconds(6)) == [])
        #expect(physics.keys(at: .seconds(120 * 10_000 + 15)) == .right)
        let changes = physics.keyChanges(in: .zero..<Duration.seconds(240))
        let expected: [(Duration, SensorTagKeys)] = [
            (.seconds(5), .left), (.milliseconds(5_400), []), (.seconds(15), .right), (.milliseconds(15_300), []),
            (.seconds(40), [.left, .right]), (.seconds(41), []), (.seconds(70), .left), (.milliseconds(70_200), []),
        ]
        let twoCycles = expected + expected.map { ($0.0 + .seconds(120), $0.1) }
        #expect(changes.map(\.time) == twoCycles.map(\.0))
        #expect(changes.map(\.keys) == twoCycles.map(\.1))
        // And a range that starts while a key is down reports only the release
        let fromInside = physics.keyChanges(in: Duration.milliseconds(5_100)..<Duration.seconds(6))
        #expect(fromInside.map(\.time) == [.milliseconds(5_400)])
    }

    @Test func sampleBytesDecodeToTheSample() throws {
        // Given a sample in the hand with the thumb on the IR sensor
        let sample = SensorTagPhysics(seed: 9).sample(at: .milliseconds(31_234))

        // When each sensor's bytes are decoded as a client would
        let ir = try SensorTagIRTemperature(gattBytes: sample.data(for: .irTemperature))
        let humidity = try SensorTagHumidity(gattBytes: sample.data(for: .humidity))
        let barometer = try SensorTagBarometerReading(
            gattBytes: sample.data(for: .barometer), calibration: .simulated)
        let acceleration = try SensorTagAcceleration(gattBytes: sample.data(for: .accelerometer))
        let field = try SensorTagMagneticField(gattBytes: sample.data(for: .magnetometer))
        let rotation = try SensorTagAngularVelocity(gattBytes: sample.data(for: .gyroscope, gyroscopeAxes: [.x, .z]))

        // Then the values are the sample's, within each encoder's rounding
        #expect(abs(ir.objectCelsius - sample.objectCelsius) <= 0.03)
        #expect(abs(ir.ambientCelsius - sample.dieCelsius) <= 1.0 / 64)
        #expect(abs(humidity.relativeHumidity - sample.relativeHumidity) <= 0.016)
        #expect(abs(barometer.pressurePascals - sample.pressurePascals) <= 0.8)
        #expect(acceleration.g.maximumDifference(to: sample.acceleration) <= 1.0 / 128)
        #expect(field.microtesla.maximumDifference(to: sample.magneticField) <= 0.016)
        #expect(abs(rotation.degreesPerSecond.x - sample.angularVelocity.x) <= 0.004)
        #expect(rotation.rawY == 0)
    }
}
