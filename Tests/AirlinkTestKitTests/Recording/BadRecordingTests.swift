import AirlinkCore
import AirlinkTestKit
import Foundation
import Testing

/// Recordings edited into inconsistency are refused with the line and what is wrong.
@Suite struct BadRecordingTests {
    /// A small valid recording: a battery service, one notification.
    static let valid = """
        recording: 1
        name: "Battery"
        id: "B4:77:E2:00:00:02"
        transport: "sim"
        advertising:
          interval: 0.1s
          connectable: true
          data: "020106"
          reports: 3
        services:
          - uuid: "1800"
            handles: [0x0001, 0x0005]
            characteristics:
              - {uuid: "2A00", handle: 0x0002, valueHandle: 0x0003, properties: [read], value: "42"}
              - {uuid: "2A01", handle: 0x0004, valueHandle: 0x0005, properties: [read], value: "0000"}
          - uuid: "1801"
            handles: [0x0006, 0x0006]
            characteristics: []
          - uuid: "180F"
            handles: [0x0007, 0x000A]
            characteristics:
              - uuid: "2A19"
                handle: 0x0008
                valueHandle: 0x0009
                properties: [read, notify]
                value: "57"
                descriptors:
                  - {uuid: "2902", handle: 0x000A, value: "0000"}
        session:
          duration: 10s
          subscribed: [0x0009]
          notifications:
            - {at: 5s, handle: 0x0009, value: "56"}

        """

    @Test func theValidRecordingLoadsAndReplays() throws {
        let recording = try DeviceRecording.parse(Self.valid, source: "battery.yaml")
        #expect(recording.session.notifications.count == 1)
        // The 1801 service serves nothing, so the replay's layout has it at 6 alone, as recorded
        _ = try recording.peripheralSpec()
    }

    @Test(
        arguments: [
            // A handle used twice: the second characteristic's declaration takes the first one's value handle
            (
                ("handle: 0x0004, valueHandle: 0x0005", "handle: 0x0003, valueHandle: 0x0005"), "battery.yaml:15:",
                "handle 0x0003 is used twice: by characteristic 2A00's value and by characteristic 2A01's declaration"
            ),
            // A value over 512 bytes
            (
                ("value: \"57\"", "value: \"" + String(repeating: "00", count: 513) + "\""), "battery.yaml:26:",
                "a value holds at most 512 bytes"
            ),
            // A name longer than a Device Name holds (248 bytes)
            (
                ("name: \"Battery\"", "name: \"" + String(repeating: "n", count: 249) + "\""), "battery.yaml:2:",
                "a device name holds at most 248 bytes"
            ),
            // An unknown key
            (
                ("    properties: [read, notify]", "    properties: [read, notify]\n        notfy: true"),
                "battery.yaml:26:",
                "a characteristic has no key `notfy`"
            ),
            // A notification from a handle that is no characteristic's value
            (
                ("{at: 5s, handle: 0x0009", "{at: 5s, handle: 0x0008"), "battery.yaml:33:",
                "no characteristic has the value handle 0x0008"
            ),
            // A characteristic outside its service's handles
            (
                ("handle: 0x000A, value", "handle: 0x000B, value"), "battery.yaml:28:",
                "descriptor 2902 of characteristic 2A19's handle 0x000B lies outside its service's handles "
                    + "0x0007...0x000A"
            ),
            // Notifications out of order, after the session's end
            (("{at: 5s,", "{at: 11s,"), "battery.yaml:33:", "is after the session's end, 10s"),
            // A property that does not exist
            (
                ("properties: [read, notify]", "properties: [read, notifies]"), "battery.yaml:25:",
                "expected a property"
            ),
        ] as [((String, String), String, String)])
    func anInconsistentRecordingIsRefusedNamingTheLine(_ edit: (String, String), _ location: String, _ message: String)
        throws
    {
        // Given the valid recording edited by hand
        let edited = Self.valid.replacingOccurrences(of: edit.0, with: edit.1)
        #expect(edited != Self.valid)

        // When it is read
        let error = #expect(throws: AirlinkError.self) { try DeviceRecording.parse(edited, source: "battery.yaml") }

        // Then the error names the line and the fault
        #expect(error?.code == .invalidSpecification)
        #expect(error?.message.contains(location) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }

    @Test func aTruncatedRecordingNamesWhatIsMissing() throws {
        // Given the recording cut off in the middle of its services
        let lines = Self.valid.split(separator: "\n", omittingEmptySubsequences: false)
        let truncated = lines.prefix(20).joined(separator: "\n")

        // When it is read
        let error = #expect(throws: AirlinkError.self) { try DeviceRecording.parse(truncated, source: "cut.yaml") }

        // Then the error names the line of the entry cut short and what it lacks
        #expect(error?.message.contains("cut.yaml:19:5: missing `characteristics`") == true, "\(error?.message ?? "")")
    }

    @Test func aRecordingTheRadioCannotLayOutIsRefusedNamingTheHandle() throws {
        // Given a recording whose battery service starts at 0x0010 (a gap after 0x1801, as real devices have)
        let edited = Self.valid.replacingOccurrences(of: "handles: [0x0007, 0x000A]", with: "handles: [0x0007, 0x0010]")
        let recording = try DeviceRecording.parse(edited, source: "gap.yaml")

        // When it is turned into a peripheral to replay
        let error = #expect(throws: AirlinkError.self) { try recording.peripheralSpec() }

        // Then the error names the service, both layouts and what to do
        #expect(error?.message.contains("services[2]: service 180F has handles 0x0007...0x0010") == true)
        #expect(error?.message.contains("edit the recording's handles") == true)
    }

    @Test func aScenarioReplaysARecordingBesideIt() async throws {
        // Given a scenario beside a recording, looping it
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory + "/devices", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.valid.write(toFile: directory + "/devices/battery.yaml", atomically: true, encoding: .utf8)
        let scenario = """
            duration: 30s
            world:
              - {recorded: devices/battery.yaml, loop: true}
            client:
              - device: Battery
                subscribe: [{service: battery, characteristic: battery-level, type: battery-level}]
            expect:
              - {value: {service: battery, characteristic: battery-level, type: battery-level, equals: 86}, atLeast: 3}
            """
        try scenario.write(toFile: directory + "/s.yaml", atomically: true, encoding: .utf8)

        // When it runs
        let result = try await ScenarioRunner().run(try Scenario.load(path: directory + "/s.yaml"))

        // Then the recorded notification comes at 5 s, 15 s and 25 s
        #expect(result.passed, "\(result.summary)")
    }

    @Test func aScenarioNamesTheLineOfABadRecordedEntry() throws {
        // Given a scenario naming a recording that does not exist, and one adding services to a recording
        let missing = "duration: 1s\nworld:\n  - recorded: nowhere.yaml\n"
        let overridden = "duration: 1s\nworld:\n  - recorded: nowhere.yaml\n    services: []\n"

        // When they are read
        let first = #expect(throws: AirlinkError.self) { try Scenario.parse(missing, source: "/tmp/s.yaml") }
        let second = #expect(throws: AirlinkError.self) { try Scenario.parse(overridden, source: "/tmp/s.yaml") }

        // Then each names the line and the entry's fault
        #expect(first?.message.contains("/tmp/s.yaml:3:15: the recording nowhere.yaml cannot be replayed") == true)
        #expect(first?.message.contains("no recording file at /tmp/nowhere.yaml") == true, "\(first?.message ?? "")")
        #expect(second?.message.contains("drop `services`") == true, "\(second?.message ?? "")")
    }
}
