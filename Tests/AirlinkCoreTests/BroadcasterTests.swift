import AirlinkCore
import Testing

@Suite struct BroadcasterTests {
    @Test func everySubscriberGetsEveryElementInOrderThenTheEnd() async {
        // Given two subscribers
        let broadcaster = Broadcaster<Int>()
        let first = broadcaster.subscribe()
        let second = broadcaster.subscribe()

        // When three elements are yielded (one alone, two at once) and the broadcaster finishes
        broadcaster.yield(1)
        broadcaster.yield(contentsOf: [2, 3])
        broadcaster.finish()

        // Then each subscriber got all three in order, then the end
        #expect(await Array(first) == [1, 2, 3])
        #expect(await Array(second) == [1, 2, 3])
    }

    @Test func aSubscriberAfterTheEndGetsAnEndedStream() async {
        // Given a broadcaster that finished (its source shut down)
        let broadcaster = Broadcaster<Int>()
        broadcaster.finish()

        // When someone subscribes, and an element is yielded anyway
        let late = broadcaster.subscribe()
        broadcaster.yield(1)

        // Then the stream has ended, empty
        #expect(await Array(late) == [])
        #expect(!broadcaster.hasSubscribers)
    }

    @Test func streamsEndWhenTheSourceIsGone() async {
        // Given a subscriber of a broadcaster that yielded one element
        var broadcaster: Broadcaster<Int>? = Broadcaster<Int>()
        let stream = broadcaster!.subscribe()
        broadcaster!.yield(7)

        // When the broadcaster is released without finishing
        broadcaster = nil

        // Then the stream delivers what was buffered, then ends
        #expect(await Array(stream) == [7])
    }

    @Test func aSlowSubscriberDelaysNobody() async {
        // Given a subscriber that never reads and one that does
        let broadcaster = Broadcaster<Int>()
        let slow = broadcaster.subscribe()
        let reader = broadcaster.subscribe()
        let count = 10_000

        // When many elements are yielded: each yield returns at once, whatever the slow one does
        let received = Task { await Array(reader) }
        broadcaster.yield(contentsOf: 0..<count)
        broadcaster.finish()

        // Then the reader got everything, and the slow subscriber's unbounded buffer kept all of it
        #expect(await received.value == Array(0..<count))
        #expect(await Array(slow).count == count)
    }

    @Test func aPredicateChoosesWhatASubscriberGets() async {
        // Given a subscriber of even numbers only
        let broadcaster = Broadcaster<Int>()
        let even = broadcaster.subscribe { $0 % 2 == 0 }

        // When 0 to 5 are yielded
        broadcaster.yield(contentsOf: 0..<6)
        broadcaster.finish()

        // Then it got the even ones
        #expect(await Array(even) == [0, 2, 4])
    }

    @Test func singleYieldsReachEverySubscriberWhetherTheLastAdmitsThemOrNot() async {
        // Given three subscribers of arrays (values holding a reference): all, short ones only, long ones only;
        // the last subscriber is handed the element itself, the others a copy
        let broadcaster = Broadcaster<[Int]>()
        let all = broadcaster.subscribe()
        let short = broadcaster.subscribe { $0.count < 2 }
        let long = broadcaster.subscribe { $0.count >= 2 }

        // When arrays are yielded one at a time, and the broadcaster finishes
        broadcaster.yield([1])
        broadcaster.yield([2, 3])
        broadcaster.yield([])
        broadcaster.finish()

        // Then each got what its predicate admits, unchanged and in order
        #expect(await Array(all) == [[1], [2, 3], []])
        #expect(await Array(short) == [[1], []])
        #expect(await Array(long) == [[2, 3]])
    }

    @Test func aSubscriberThatLeftIsForgotten() {
        // Given a subscriber that dropped its stream
        let broadcaster = Broadcaster<Int>()
        withExtendedLifetime(broadcaster.subscribe()) {}

        // When the next element is yielded
        broadcaster.yield(1)

        // Then nobody listens any more
        #expect(!broadcaster.hasSubscribers)
    }
}

extension Array where Element: Sendable {
    /// Collects a finite event stream.
    fileprivate init(_ stream: EventStream<Element>) async {
        self = []
        for await element in stream { append(element) }
    }
}
