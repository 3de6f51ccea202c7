import AirlinkCore
import AirlinkTestKit
import Foundation
import Testing

/// `airlink record` honours what it accepts: a session lasts what `--duration` asked, whatever the read interval.
@Suite struct RecordLimitsTests {
    @Test func aShortReadIntervalKeepsTheSessionToItsDuration() async throws {
        // Given the battery recorded for 20 s, every readable value read every millisecond
        let cli = try CLI()
        defer { cli.cleanUp() }
        let path = cli.directory + "/battery.yaml"

        // When it is recorded
        let result = try await cli.start(
            ["record", World.battery, "--duration", "20s", "--read-interval", "1ms", "--out", path], environment: [:]
        ).wait(upTo: .seconds(120))

        // Then the session lasts the 20 s asked, with the advertising window and the connection before it
        #expect(!result.timedOut && result.status == 0, "\(result)")
        let recording = try DeviceRecording.load(path: path)
        #expect(recording.session.duration >= .seconds(20), "\(recording.session.duration)")
        #expect(recording.session.duration < .seconds(25), "\(recording.session.duration)")
        #expect(!recording.session.reads.isEmpty)
    }
}
