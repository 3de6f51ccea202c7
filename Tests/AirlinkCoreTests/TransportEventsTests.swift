import AirlinkCore
import Testing

@Suite struct TransportEventsTests {
    private let device: DeviceID = "C0:FF:EE:00:00:01"

    @Test func deliversEventsInOrderThenEndsAfterTheBufferedOnes() async {
        // Given a channel with three events yielded before anyone iterates
        let (events, channel) = TransportEvents.makeChannel()
        for handle in 1...3 { channel.yield(.notification(device, handle: ATTHandle(UInt16(handle)), value: [])) }

        // When the channel finishes and the subscriber iterates
        channel.finish()
        var handles: [UInt16] = []
        for await event in events {
            if case .notification(_, let handle, _) = event { handles.append(handle.rawValue) }
        }

        // Then it got the three events in order, then the end
        #expect(handles == [1, 2, 3])
        #expect(channel.yield(.servicesChanged(device)))  // finished, not gone: still accepted (dropped)
    }

    @Test func wakesAWaitingSubscriber() async {
        // Given a subscriber waiting on an empty channel
        let (events, channel) = TransportEvents.makeChannel()
        let first = Task { await events.first { _ in true } }
        await Task.yield()

        // When an event is yielded
        channel.yield(.connected(device))

        // Then the subscriber receives it
        let event = await first.value
        guard case .connected(let id) = event else {
            Issue.record("expected .connected, got \(String(describing: event))")
            return
        }
        #expect(id == device)
    }

    @Test func aDroppedSubscriberIsReportedGone() {
        // Given a channel whose subscriber took an event, then dropped its sequence unread
        let channel = Self.channelOfADroppedSubscriber(device)

        // Then the transport learns that the subscriber is gone
        #expect(channel.isTerminated)
        #expect(!channel.yield(.connected(device)))
    }

    private static func channelOfADroppedSubscriber(_ device: DeviceID) -> TransportEventChannel {
        let (events, channel) = TransportEvents.makeChannel()
        #expect(channel.yield(.connected(device)))
        #expect(!channel.isTerminated)
        withExtendedLifetime(events) {}
        return channel
    }

    @Test func cancellingTheWaitingTaskEndsTheSequence() async {
        // Given a subscriber waiting for events that never come
        let (events, channel) = TransportEvents.makeChannel()
        let consumer = Task { () -> Int in
            var count = 0
            for await _ in events { count += 1 }
            return count
        }
        await Task.yield()

        // When its task is cancelled
        consumer.cancel()

        // Then the sequence ends without an event, and the channel reports the subscriber gone
        #expect(await consumer.value == 0)
        #expect(channel.isTerminated)
    }

    @Test func wrapsAnAsyncStream() async {
        // Given a transport that has an AsyncStream of events
        let (stream, continuation) = AsyncStream<TransportEvent>.makeStream()
        continuation.yield(.servicesChanged(device))
        continuation.finish()

        // When it is wrapped and iterated
        var count = 0
        for await _ in TransportEvents(stream) { count += 1 }

        // Then the stream's events come through, then the end
        #expect(count == 1)
    }
}
