import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkProfiles

@Suite struct SensorTagServiceTests {
    /// A strict simulation with the SensorTag, connected through the layers.
    private static func connectedTag(
        calibration: SensorTagBarometerCalibration? = .simulated
    ) async throws -> (Simulation, SimulatedPeripheral, SensorTagService) {
        let sim = Simulation(seed: 6, strict: true)
        let tag = try sim.add(.sensorTag(calibration: calibration))
        let service = try await sim.run { SensorTagService(try await ConnectedDevice.connect(sim, tag.id).connection) }
        return (sim, tag, service)
    }

    @Test func sensorsAreOffUntilConfigured() async throws {
        // Given a connected SensorTag whose accelerometer data a central subscribed to
        let (sim, _, service) = try await Self.connectedTag()
        let stream = try await sim.run { try await service.readings(of: [.accelerometer], keys: false) }
        let observed = Observed<SensorTagReading>()
        sim.spawn { for await reading in stream { observed.append(reading) } }

        // When three seconds pass and the data are read, before the sensor is turned on
        try await sim.run(for: .seconds(3))
        let (data, enabled) = try await sim.run {
            (
                try await service.service(.accelerometer).read(.sensorTagAccelerometerData),
                try await service.isEnabled(.accelerometer)
            )
        }

        // Then nothing was notified and the data are zeros
        #expect(observed.values.isEmpty)
        #expect(data == [0, 0, 0])
        #expect(!enabled)
    }

    @Test func readingsOfEverySensorMatchThePhysicsAtTheirVirtualTime() async throws {
        // Given a connected SensorTag with every sensor on, 12 s into its script (the tag in the hand)
        let (sim, _, service) = try await Self.connectedTag()
        let physics = SensorTagPhysics(seed: 2541)
        try await sim.run { for sensor in SensorTagSensor.allCases { try await service.enable(sensor) } }
        try await sim.run(for: .seconds(12))

        // When each sensor is read, noting the virtual time before and after
        var checked = 0
        for sensor in SensorTagSensor.allCases {
            let before = sim.now.offset
            let reading = try await sim.run { try await service.read(sensor) }
            let after = sim.now.offset

            // Then at one 10 ms tick within the read, the physics gives these bytes, and the decoded
            // values are the physics' within the encoding's rounding
            let ticks = stride(from: before.nanoseconds / 10_000_000, through: after.nanoseconds / 10_000_000, by: 1)
            let samples = ticks.map { physics.sample(at: .milliseconds($0 * 10)) }
            let matching = samples.filter {
                (try? SensorTagReading(
                    decoding: $0.data(for: sensor), of: sensor, calibration: .simulated)) == reading
            }
            let sample = try #require(matching.first, "no tick between \(before) and \(after) gives \(reading)")
            switch reading {
            case .irTemperature(let value):
                #expect(abs(value.ambientCelsius - sample.dieCelsius) <= 1.0 / 64)
                #expect(abs(value.objectCelsius - sample.objectCelsius) <= 0.03)
            case .humidity(let value):
                #expect(abs(value.temperatureCelsius - sample.humidityTemperatureCelsius) <= 175.72 / 16384 / 2 + 1e-9)
                #expect(abs(value.relativeHumidity - sample.relativeHumidity) <= 125.0 / 4096 / 2 + 1e-9)
            case .barometer(let value):
                #expect(abs(value.temperatureCelsius - sample.barometerTemperatureCelsius) <= 45000.0 / 33_554_432)
                #expect(abs(value.pressurePascals - sample.pressurePascals) < 0.8)
            case .accelerometer(let value):
                #expect(value.g.maximumDifference(to: sample.acceleration) <= 1.0 / 128)
            case .magnetometer(let value):
                #expect(value.microtesla.maximumDifference(to: sample.magneticField) <= 2000.0 / 65536 / 2)
            case .gyroscope(let value):
                #expect(value.degreesPerSecond.maximumDifference(to: sample.angularVelocity) <= 500.0 / 65536 / 2)
            case .keys:
                Issue.record("a sensor read gave keys")
            }
            #expect(reading.sensor == sensor)
            checked += 1
        }
        #expect(checked == 6)
        let stillOn = try await sim.run { try await service.isEnabled(.barometer) }
        #expect(stillOn)
    }

    @Test func notificationsComeAtTheConfiguredPeriodAndKeysOnEachChange() async throws {
        // Given a connected SensorTag streaming its humidity and keys, humidity every 500 ms
        let (sim, _, service) = try await Self.connectedTag()
        let start = try await sim.run { () async throws(AirlinkError) -> Duration in
            try await service.setPeriod(.milliseconds(500), for: .humidity)
            try await service.enable(.humidity)
            return sim.now.offset
        }
        let stream = try await sim.run { try await service.readings(of: [.humidity]) }
        let observed = Observed<SensorTagReading>()
        sim.spawn { for await reading in stream { observed.append(reading) } }

        // When time passes to 6.2 s, over the scripted left-key press at 5 s
        try await sim.run(for: .seconds(6.2) - sim.now.offset)

        // Then the humidity came every 500 ms from one period after it was turned on, the keys at each change
        let humidity = observed.values.filter { $0.sensor == .humidity }
        let keys = observed.values.compactMap { reading -> SensorTagKeys? in
            if case .keys(let keys) = reading { keys } else { nil }
        }
        let expectedCount = Int((Duration.seconds(6.2) - start) / .milliseconds(500))
        #expect(humidity.count == expectedCount)
        let changes = SensorTagPhysics(seed: 2541).keyChanges(in: start..<Duration.seconds(6.2))
        #expect(keys == changes.map(\.keys))
        #expect(keys == [.left, []])
    }

    @Test func stoppedNotificationsEndTheReadingsOfThatSensor() async throws {
        // Given a connected SensorTag streaming its humidity every 500 ms
        let (sim, _, service) = try await Self.connectedTag()
        let stream = try await sim.run {
            try await service.setPeriod(.milliseconds(500), for: .humidity)
            try await service.enable(.humidity)
            return try await service.readings(of: [.humidity], keys: false)
        }
        let observed = Observed<SensorTagReading>()
        sim.spawn { for await reading in stream { observed.append(reading) } }
        try await sim.run(for: .seconds(2))
        let whileOn = observed.values.count

        // When its notifications are stopped and 2 s more pass
        try await sim.run { try await service.stopNotifications(of: [.humidity], keys: false) }
        let atStop = observed.values.count
        try await sim.run(for: .seconds(2))

        // Then readings came while on, none after, and the tag was told
        #expect(whileOn >= 3)
        #expect(observed.values.count == atStop)
        #expect(service.service(.humidity).notificationMode(of: .sensorTagHumidityData) == .disabled)
    }

    @Test func periodsBelowTheMinimumAreRefusedByTheServiceAndTheTag() async throws {
        // Given a connected SensorTag
        let (sim, _, service) = try await Self.connectedTag()

        // When 50 ms is asked for the humidity, 200 ms for the IR sensor, and 50 ms written raw
        let humidity = try await sim.run {
            await #expect(throws: AirlinkError.self) { try await service.setPeriod(.milliseconds(50), for: .humidity) }
        }
        let ir = try await sim.run {
            await #expect(throws: AirlinkError.self) {
                try await service.setPeriod(.milliseconds(200), for: .irTemperature)
            }
        }
        let raw = try await sim.run {
            await #expect(throws: AirlinkError.self) {
                try await service.service(.humidity).write([0x05], to: .sensorTagHumidityPeriod)
            }
        }
        let (period, accepted) = try await sim.run {
            try await service.setPeriod(.milliseconds(100), for: .humidity)
            return (try await service.period(of: .irTemperature), try await service.period(of: .humidity))
        }

        // Then the service names the value and the limit; the tag answers 0x80; valid periods are stored
        #expect(humidity?.code == .invalidArgument)
        #expect(humidity?.message.contains("50 ms") == true && humidity?.message.contains("100 ms") == true)
        #expect(ir?.message.contains("200 ms") == true && ir?.message.contains("300 ms") == true)
        #expect(raw?.code == .attribute)
        if case .att(let error, _)? = raw?.cause {
            #expect(error == ATTError(0x80))
        } else {
            Issue.record("no ATT cause")
        }
        #expect(period == .seconds(1))
        #expect(accepted == .milliseconds(100))
    }

    @Test func aTagWithoutCalibrationCannotGiveThePressure() async throws {
        // Given a SensorTag whose calibration reads as zeros, its barometer on
        let (sim, _, service) = try await Self.connectedTag(calibration: nil)

        // When the barometer is read
        let error = try await sim.run {
            try await service.enable(.barometer)
            return await #expect(throws: AirlinkError.self) { try await service.barometer() }
        }

        // Then a typed error names the coefficients and their limit
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("c1 = 0") == true && error?.message.contains("above 0") == true)
    }

    @Test func aSeededSessionRunsTheSameEveryTime() async throws {
        // Given two runs of the same session: every sensor on at 100 ms (IR 300 ms), streamed for 3 s
        func session() async throws -> (trace: [TraceRecord], readings: [SensorTagReading]) {
            let (sim, _, service) = try await Self.connectedTag()
            let stream = try await sim.run { () async throws(AirlinkError) -> AsyncStream<SensorTagReading> in
                let stream = try await service.readings()
                for sensor in SensorTagSensor.allCases {
                    try await service.setPeriod(max(.milliseconds(100), sensor.minimumPeriod), for: sensor)
                    try await service.enable(sensor)
                }
                return stream
            }
            let observed = Observed<SensorTagReading>()
            sim.spawn { for await reading in stream { observed.append(reading) } }
            try await sim.run(for: .seconds(3))
            return (sim.trace.records, observed.values)
        }

        // When both run
        let first = try await session()
        let second = try await session()

        // Then the traces and the readings are identical, and there were readings of every sensor
        #expect(first.trace == second.trace)
        #expect(first.readings == second.readings)
        #expect(Set(first.readings.compactMap(\.sensor)) == Set(SensorTagSensor.allCases))
    }

    @Test func aPayloadOfTheWrongLengthIsATypedError() {
        // Given a humidity payload of three bytes, and an accelerometer payload of four
        // When they are decoded
        let humidity = #expect(throws: AirlinkError.self) {
            try SensorTagReading(decoding: [1, 2, 3], of: .humidity, calibration: nil)
        }
        let acceleration = #expect(throws: AirlinkError.self) {
            try SensorTagReading(decoding: [1, 2, 3, 4], of: .accelerometer, calibration: nil)
        }

        // Then each error names the expected length
        #expect(humidity?.code == .malformedData && humidity?.message.contains("takes 4 bytes, not 3") == true)
        #expect(acceleration?.message.contains("takes 3 bytes, not 4") == true)
    }
}
