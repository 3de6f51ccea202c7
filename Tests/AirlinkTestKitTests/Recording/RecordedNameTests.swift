import AirlinkCore
import AirlinkTestKit
import Testing

/// A device's name is what the device says it is: the recorder keeps it as the replay accepts it.
@Suite struct RecordedNameTests {
    @Test func aDeviceNameLongerThanGAPAllowsIsCutAndItsControlCharactersReplaced() async throws {
        // Given a peripheral whose Device Name is 401 bytes of UTF-8 (an escape code, then 200 two-byte characters)
        let long = "\u{1B}" + String(repeating: "é", count: 200)
        let spec = PeripheralSpec(name: long, id: "C0:FF:EE:00:00:0A") {
            Advertising(every: .milliseconds(100)) { LocalName("Long") }
            Service(.battery) { Characteristic(.batteryLevel, properties: [.read], value: UInt8(50)) }
        }

        // When it is recorded
        let (recording, _) = try await recordOnSimulation(spec)

        // Then the name holds at most 248 bytes, cut between characters, with the escape code replaced
        #expect(recording.name.utf8.count <= DeviceRecording.maximumNameLength)
        #expect(recording.name == "\u{FFFD}" + String(repeating: "é", count: 122))
        // And the recording loads again and replays
        let reread = try DeviceRecording.parse(recording.yaml, source: "long.yaml")
        #expect(reread.name == recording.name)
        _ = try reread.peripheralSpec()
    }
}
