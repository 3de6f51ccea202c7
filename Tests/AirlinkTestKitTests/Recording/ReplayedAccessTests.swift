import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Testing

/// Reads and writes on a replayed recording answer as the recording says.
@Suite struct ReplayedAccessTests {
    @Test func readsAndWritesAnswerAsTheRecordedValuesPropertiesAndErrorsSay() async throws {
        // Given the valid battery recording edited: the level's read refused, a writable characteristic refusing
        // every write with 0x80, and another accepting writes
        let edited = BadRecordingTests.valid.replacingOccurrences(
            of: "        value: \"57\"\n",
            with: "        readError: insufficient-authentication\n"
        ).replacingOccurrences(
            of: "session:\n",
            with: """
                  - uuid: "FFF0"
                    handles: [0x0020, 0x0024]
                    characteristics:
                      - {uuid: "FFF1", handle: 0x0021, valueHandle: 0x0022, properties: [read, write], value: "01",
                         writeError: 0x80}
                      - {uuid: "FFF2", handle: 0x0023, valueHandle: 0x0024, properties: [read, write], value: "02"}
                session:

                """)
        #expect(edited.contains("readError") && edited.contains("FFF2"))
        let recording = try DeviceRecording.parse(edited, source: "edited.yaml")
        let simulation = Simulation(seed: 3, strict: true)
        _ = try simulation.add(try recording.peripheralSpec())
        let radio = simulation.radio
        let id = recording.id

        // When a central reads and writes
        let outcome = try await simulation.run { () async throws -> [String] in
            _ = try await radio.connect(id, timeout: .seconds(5))
            func attempt(_ body: () async throws(AirlinkError) -> String) async -> String {
                do { return try await body() } catch { return "\(error.cause.map { "\($0)" } ?? "\(error.code)")" }
            }
            let level = await attempt { () throws(AirlinkError) in "\(try await radio.read(id, handle: ATTHandle(9)))" }
            let refused = await attempt { () throws(AirlinkError) in
                try await radio.write(id, handle: ATTHandle(0x22), value: [9], type: .withResponse)
                return "written"
            }
            let accepted = await attempt { () throws(AirlinkError) in
                try await radio.write(id, handle: ATTHandle(0x24), value: [9, 9], type: .withResponse)
                return "\(try await radio.read(id, handle: ATTHandle(0x24)))"
            }
            return [level, refused, accepted]
        }

        // Then the recorded error, the recorded write error, and the written value come back
        #expect(outcome[0].contains("ATT Insufficient Authentication"), "\(outcome)")
        #expect(outcome[1].contains("0x80"), "\(outcome)")
        #expect(outcome[2] == "[9, 9]", "\(outcome)")
    }
}
