import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import AirlinkTestKit
import Testing

/// Records a peripheral on a fresh simulation of `seed`, where `spec` is the only device.
func recordOnSimulation(
    _ spec: PeripheralSpec, seed: UInt64 = 1, options: RecordingOptions = RecordingOptions(duration: .seconds(10))
) async throws -> (DeviceRecording, RecordingCapture) {
    let simulation = Simulation(seed: seed, strict: true)
    _ = try simulation.add(spec)
    let recorder = DeviceRecorder(transport: simulation.radio, environment: simulation.environment)
    let id = spec.id
    return try await simulation.run { try await recorder.record(id, options: options) }
}

@Suite struct RecordReplayRoundTripTests {
    static let builtIns: [(String, PeripheralSpec)] = [
        ("thermostat", .thermostat()), ("battery", .battery()), ("sensortag", .sensorTag()),
    ]

    @Test(arguments: ["thermostat", "battery", "sensortag"])
    func replayServesTheRecordedDatabaseByteForByte(_ name: String) async throws {
        // Given a recording of a built-in peripheral, written as YAML and read back
        let spec = try #require(Self.builtIns.first { $0.0 == name }?.1)
        let (original, _) = try await recordOnSimulation(spec)
        let reread = try DeviceRecording.parse(original.yaml, source: "\(name).yaml")
        #expect(reread == original)

        // When the replay is recorded the same way
        let (replayed, _) = try await recordOnSimulation(try reread.peripheralSpec())

        // Then handles, UUIDs, properties, descriptors and every value read are the same, the hash among them
        #expect(replayed.database == original.database)
        #expect(original.database.hash?.count == 16)
        #expect(replayed.advertising?.data == original.advertising?.data)
        #expect(replayed.advertising?.isConnectable == original.advertising?.isConnectable)
        #expect(replayed.name == original.name)
        #expect(replayed.id == original.id)
    }

    @Test func aBatteryRecordingReplaysItsNotificationsAtTheirTimes() async throws {
        // Given the battery draining 1 % every 2 s, recorded for 10 s
        let (original, _) = try await recordOnSimulation(.battery(level: 50, drainEvery: .seconds(2)))
        #expect(original.session.notifications.count >= 3)

        // When its replay is recorded
        let (replayed, _) = try await recordOnSimulation(try original.peripheralSpec())

        // Then the same values arrive at their times, give or take the link: a recorded time is the arrival at the
        // central, and the replay's value waits for the next connection event (30 ms apart) as the device's did
        #expect(replayed.session.notifications.map(\.value) == original.session.notifications.map(\.value))
        for (replay, recorded) in zip(replayed.session.notifications, original.session.notifications) {
            #expect(replay.time >= recorded.time && replay.time - recorded.time <= .milliseconds(30))
        }
    }

    @Test func aReplayIsDeterministic() async throws {
        // Given a recording of the thermostat
        let (original, _) = try await recordOnSimulation(.thermostat())
        let spec = try original.peripheralSpec()

        // When the replay runs twice with one seed
        func trace() async throws -> String {
            let simulation = Simulation(seed: 9, strict: true)
            _ = try simulation.add(spec)
            let recorder = DeviceRecorder(transport: simulation.radio, environment: simulation.environment)
            _ = try await simulation.run {
                try await recorder.record(spec.id, options: RecordingOptions(duration: .seconds(5)))
            }
            return simulation.trace.text
        }

        // Then the traces are the same, byte for byte
        let first = try await trace()
        #expect(!first.isEmpty)
        #expect(try await trace() == first)
    }
}
