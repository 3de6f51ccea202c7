import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Testing

/// `readInterval`: reads made again while recording, and a replay whose reads return the latest recorded value.
@Suite struct RecordedReadsTests {
    /// A counter that only reads (no notifications), counting up every second.
    static let counter = PeripheralSpec(name: "Counter", id: "C0:FF:EE:00:00:42") {
        Advertising(every: .milliseconds(100)) { LocalName("Counter") }
        Service(BluetoothUUID(0xFFF0)) {
            Characteristic(BluetoothUUID(0xFFF1), properties: [.read], value: UInt8(0))
                .updates(every: .seconds(1)) { $0 &+ 1 }
        }
    }

    @Test func aReplayReadsTheLatestValueRecordedAtTheReadInterval() async throws {
        // Given the counter recorded for 6 s, read again every 2 s, and the recording read back from its YAML
        let (original, _) = try await recordOnSimulation(
            Self.counter, options: RecordingOptions(duration: .seconds(6), readInterval: .seconds(2)))
        let recording = try DeviceRecording.parse(original.yaml, source: "counter.yaml")
        #expect(recording == original)
        let reads = recording.session.reads
        #expect(reads.count == 3)
        #expect(Set(reads.compactMap(\.value.bytes)).count == 3, "the counter moved between reads: \(reads)")

        // When a central reads the replay 100 ms after each recorded read
        let simulation = Simulation(seed: 5, strict: true)
        _ = try simulation.add(try recording.peripheralSpec())
        let radio = simulation.radio
        let clock = simulation.environment.clock
        let handle = try #require(reads.first?.handle)
        let values = try await simulation.run { () async throws -> [[UInt8]] in
            _ = try await radio.connect(recording.id, timeout: .seconds(5))
            var values: [[UInt8]] = []
            for read in reads {
                try await clock.sleep(until: AirlinkInstant(offset: read.time + .milliseconds(100)))
                values.append(try await radio.read(recording.id, handle: handle))
            }
            return values
        }

        // Then each returns the value recorded then
        #expect(values == reads.compactMap(\.value.bytes))
    }
}
