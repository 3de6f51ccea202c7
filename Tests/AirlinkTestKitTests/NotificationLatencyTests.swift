import Airlink
import AirlinkCore
import Testing

@testable import AirlinkTestKit

/// The notification oracle's `latency`: on a real transport a values stream's end and the loss that ends it
/// reach the recorder by different paths, so the end may be recorded up to `latency` before the loss; on the
/// virtual radio (zero latency) an end recorded any earlier than the loss is a defect.
@Suite struct NotificationLatencyTests {
    typealias Shared = ExplorerOracleTests

    /// The values stream of F111 ended `before` the loss at 5 s (no reconnection: the loss is for good),
    /// judged with `latency`.
    static func judge(streamEndedBefore before: Duration, latency: Duration) -> [String] {
        let loss: Duration = .seconds(5)
        let observation = ExplorationObservation(
            end: .seconds(10),
            events: [Shared.event(1, .connected(Shared.link)), Shared.event(5, .lost(Shared.loss))],
            operations: [Shared.operation("subscribe F111", start: 1, timeout: 30, ends: [1.1])],
            streamEnds: [ScenarioStreamEnd(time: loss - before, device: Shared.device, characteristic: .init(0xF111))],
            clients: [Shared.client(.none, subscribed: ["F111"])])
        return NotificationOracle(latency: latency).violations(in: observation)
    }

    @Test func aStreamEndRecordedUpToTheLatencyBeforeTheLossPasses() {
        // Given the BlueZ explorer's latency, 50 ms
        let latency: Duration = .milliseconds(50)

        // When the stream's end is recorded at the loss, 8 µs before it (as real time records it), or 50 ms before it
        let atTheLoss = Self.judge(streamEndedBefore: .zero, latency: latency)
        let eightMicroseconds = Self.judge(streamEndedBefore: .microseconds(8), latency: latency)
        let atTheBound = Self.judge(streamEndedBefore: latency, latency: latency)

        // Then each passes
        #expect(atTheLoss.isEmpty, "\(atTheLoss)")
        #expect(eightMicroseconds.isEmpty, "\(eightMicroseconds)")
        #expect(atTheBound.isEmpty, "\(atTheBound)")
    }

    @Test func aStreamEndRecordedBeyondTheLatencyBeforeTheLossFails() {
        // Given the BlueZ explorer's latency, 50 ms
        let latency: Duration = .milliseconds(50)

        // When the stream's end is recorded 1 µs more than that before the loss
        let violations = Self.judge(streamEndedBefore: latency + .microseconds(1), latency: latency)

        // Then the oracle names the early end
        #expect(violations.count == 1, "\(violations)")
        #expect(violations.contains { $0.contains("ended at t=") && $0.contains("before lost at t=5s") })
    }

    @Test func onTheRadioAStreamEndOneMicrosecondBeforeTheLossFails() {
        // Given the virtual radio's latency, none
        // When the stream's end is recorded 1 µs before the loss, or at it
        let early = Self.judge(streamEndedBefore: .microseconds(1), latency: .zero)
        let atTheLoss = Self.judge(streamEndedBefore: .zero, latency: .zero)

        // Then the early end fails and the end at the loss passes
        #expect(early.contains { $0.contains("before lost at t=5s") }, "\(early)")
        #expect(atTheLoss.isEmpty, "\(atTheLoss)")
    }
}
