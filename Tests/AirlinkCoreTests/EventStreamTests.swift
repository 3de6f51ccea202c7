import AirlinkCore
import Testing

@Suite struct EventStreamTests {
    private let device: DeviceID = "C0:FF:EE:00:00:01"

    @Test func deliversEventsInOrderThenEndsAfterTheBufferedOnes() async {
        // Given a stream with three events yielded before anyone iterates
        let (events, continuation) = TransportEvents.makeStream()
        for handle in 1...3 { continuation.yield(.notification(device, handle: ATTHandle(UInt16(handle)), value: [])) }

        // When the producer finishes and the subscriber iterates
        continuation.finish()
        var handles: [UInt16] = []
        for await event in events {
            if case .notification(_, let handle, _) = event { handles.append(handle.rawValue) }
        }

        // Then it got the three events in order, then the end
        #expect(handles == [1, 2, 3])
        #expect(continuation.yield(.servicesChanged(device)))  // finished, not gone: still accepted (dropped)
    }

    @Test func wakesAWaitingSubscriber() async {
        // Given a subscriber waiting on an empty stream
        let (events, continuation) = TransportEvents.makeStream()
        let first = Task { await events.first { _ in true } }
        await Task.yield()

        // When an event is yielded
        continuation.yield(.connected(device))

        // Then the subscriber receives it
        let event = await first.value
        guard case .connected(let id) = event else {
            Issue.record("expected .connected, got \(String(describing: event))")
            return
        }
        #expect(id == device)
    }

    @Test func aDroppedSubscriberIsReportedGone() {
        // Given a stream whose subscriber took an event, then dropped its sequence unread
        let continuation = Self.continuationOfADroppedSubscriber(device)

        // Then the producer learns that the subscriber is gone
        #expect(continuation.isTerminated)
        #expect(!continuation.yield(.connected(device)))
    }

    private static func continuationOfADroppedSubscriber(_ device: DeviceID) -> TransportEvents.Continuation {
        let (events, continuation) = TransportEvents.makeStream()
        #expect(continuation.yield(.connected(device)))
        #expect(!continuation.isTerminated)
        withExtendedLifetime(events) {}
        return continuation
    }

    @Test func cancellingTheWaitingTaskEndsTheSequence() async {
        // Given a subscriber waiting for events that never come
        let (events, continuation) = TransportEvents.makeStream()
        let consumer = Task { () -> Int in
            var count = 0
            for await _ in events { count += 1 }
            return count
        }
        await Task.yield()

        // When its task is cancelled
        consumer.cancel()

        // Then the sequence ends without an event, and the continuation reports the subscriber gone
        #expect(await consumer.value == 0)
        #expect(continuation.isTerminated)
    }

    @Test func aFinishedStreamHasEnded() async {
        // Given the stream a source that is gone hands out
        let events = EventStream<Int>.finished()

        // When it is iterated
        var count = 0
        for await _ in events { count += 1 }

        // Then it ends at once, empty
        #expect(count == 0)
    }
}
