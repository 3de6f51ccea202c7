import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import AirlinkTestKit
import Testing

/// Writes a recording makes, with what the device did next, replayed the same way.
@Suite struct RecordedWritesTests {
    /// The thermostat's set point written to 25 °C, watched 2 s after each write.
    static func options(writing degrees: Double) -> RecordingOptions {
        RecordingOptions(
            duration: .seconds(6),
            writes: [.init(uuid: .thermostatTemperature, value: Temperature(degrees: degrees).gattBytes)],
            writeWindow: .seconds(2))
    }

    @Test func aThermostatWriteRecordedReplaysWithItsAnswerAndNotifications() async throws {
        // Given the thermostat recorded while its set point is written (the room warms, notifying as it goes)
        let (original, _) = try await recordOnSimulation(
            .thermostat(temperature: 20), options: Self.options(writing: 25))
        let write = try #require(original.session.writes.first)
        #expect(write.error == nil)
        #expect(write.followed.count >= 1)
        #expect(try DeviceRecording.parse(original.yaml, source: "thermostat.yaml") == original)
        // What followed the write is the write's, not the session's
        for notification in original.session.notifications {
            #expect(notification.time < write.time || notification.time > write.time + .seconds(2))
        }

        // When the replay is recorded with the same write
        let (replayed, _) = try await recordOnSimulation(
            try original.peripheralSpec(), options: Self.options(writing: 25))

        // Then the write gets the same answer and the same notifications after the same delays
        #expect(replayed.session.writes == original.session.writes)
    }

    @Test func aRefusedWriteIsRecordedAndReplayedWithItsError() async throws {
        // Given the thermostat recorded while a set point it refuses (50 °C, over its 35 °C) is written
        let (original, _) = try await recordOnSimulation(.thermostat(), options: Self.options(writing: 50))
        #expect(original.session.writes.first?.error == .valueNotAllowed)

        // When the replay gets the same write
        let (replayed, _) = try await recordOnSimulation(
            try original.peripheralSpec(), options: Self.options(writing: 50))

        // Then it refuses it with the same error
        #expect(replayed.session.writes.first?.error == .valueNotAllowed)
        #expect(replayed.session.writes.first?.followed == [])
    }

    @Test func aWriteOfOtherBytesFallsBackToWriteErrorOrTheProperties() async throws {
        // Given a recording of a 25 °C write
        var recording = try await recordOnSimulation(.thermostat(temperature: 20), options: Self.options(writing: 25)).0

        // When the replay gets a 22 °C write, then the same with the characteristic's writeError set
        let other = try await recordOnSimulation(try recording.peripheralSpec(), options: Self.options(writing: 22)).0
        let handle = try #require(recording.session.writes.first?.handle)
        for s in recording.database.services.indices {
            for c in recording.database.services[s].characteristics.indices
            where recording.database.services[s].characteristics[c].valueHandle == handle {
                recording.database.services[s].characteristics[c].writeError = .writeNotPermitted
            }
        }
        let refused = try await recordOnSimulation(try recording.peripheralSpec(), options: Self.options(writing: 22)).0
        let recorded = try await recordOnSimulation(try recording.peripheralSpec(), options: Self.options(writing: 25))
            .0

        // Then the other bytes are accepted with nothing following, or refused with writeError; the recorded bytes
        // still get the recorded answer
        #expect(other.session.writes.first?.error == nil)
        #expect(other.session.writes.first?.followed == [])
        #expect(refused.session.writes.first?.error == .writeNotPermitted)
        #expect(recorded.session.writes.first?.followed == recording.session.writes.first?.followed)
    }

    /// The small battery recording with a write to its level and a notification that followed it.
    static let writes = """
          writes:
            - at: 6s
              handle: 0x0009
              value: "58"
              followed:
                - {after: 0.5s, handle: 0x0009, value: "58"}

        """

    @Test(
        arguments: [
            // A write to a characteristic that allows none
            ("[read, notify]", "{after: 0.5s, handle: 0x0009", "battery.yaml:36:", "no writable characteristic has "),
            // A notification after a write from a characteristic that does not notify
            (
                "[read, write, notify]", "{after: 0.5s, handle: 0x0003", "battery.yaml:39:",
                "no characteristic that notifies or indicates has the value handle 0x0003"
            ),
        ] as [(String, String, String, String)])
    func aBadWriteInARecordingIsRefusedNamingTheLine(
        _ properties: String, _ followed: String, _ location: String, _ message: String
    ) throws {
        // Given the small battery recording with a write to a writable level, and what followed it
        let writable = BadRecordingTests.valid.replacingOccurrences(
            of: "properties: [read, notify]", with: "properties: [read, write, notify]")
        _ = try DeviceRecording.parse(writable + Self.writes, source: "battery.yaml")

        // When it is edited into a write to a read-only level, or a notification from the Device Name
        let edited =
            BadRecordingTests.valid.replacingOccurrences(
                of: "properties: [read, notify]", with: "properties: \(properties)")
            + Self.writes.replacingOccurrences(of: "{after: 0.5s, handle: 0x0009", with: followed)
        let error = #expect(throws: AirlinkError.self) { try DeviceRecording.parse(edited, source: "battery.yaml") }

        // Then the error names the line and the fault
        #expect(error?.code == .invalidSpecification)
        #expect(error?.message.contains(location) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }

    @Test func aScanResponseIsRecordedApartAndReplayedAsOne() async throws {
        // Given the thermostat, whose scan response carries its complete name, recorded by an active scan
        let (original, _) = try await recordOnSimulation(.thermostat())
        let response = try #require(original.advertising?.scanResponse)
        #expect(try Advertisement(decoding: response).name == "Thermostat")
        #expect(try Advertisement(decoding: original.advertising?.data ?? []).name == "Thermost")

        // When the replay is recorded
        let (replayed, _) = try await recordOnSimulation(try original.peripheralSpec())

        // Then it answered the active scan with the same scan response, apart from its advertising data
        #expect(replayed.advertising?.scanResponse == response)
        #expect(replayed.advertising?.data == original.advertising?.data)
        #expect(try original.peripheralSpec().advertising?.scanResponse?.isScanResponse == true)
    }
}
