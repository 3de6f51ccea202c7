/// One subscriber's `AsyncSequence` of events: what every Airlink event stream returns (the
/// transport's ``Transport/events()``, ``PeripheralTransport/peripheralEvents()``, the layers'
/// event streams).
///
/// Backed by a batched channel: a producer's ``Continuation/yield(_:)`` appends to a buffer and wakes
/// the consumer only if it waits, and the consumer takes everything buffered at once, so a burst
/// costs one wake-up where an `AsyncStream` costs one per element (Docs/adr/0009). Semantics are an
/// `AsyncStream`'s with the default policy: one consumer, elements in order, an unbounded buffer
/// (a producer never waits for a slow consumer), the end after the buffered elements once the
/// producer finishes, and the end at once when the iterating task is cancelled.
///
/// ```swift
/// let (stream, continuation) = EventStream<Int>.makeStream()
/// continuation.yield(1)
/// continuation.finish()
/// for await value in stream { print(value) }  // 1
/// ```
public struct EventStream<Element: Sendable>: AsyncSequence, Sendable {
    /// The sequence never throws.
    public typealias Failure = Never

    let subscription: EventSubscription<Element>

    /// A new stream and the continuation its producer yields to.
    public static func makeStream() -> (stream: EventStream<Element>, continuation: Continuation) {
        let continuation = Continuation()
        return (EventStream(subscription: EventSubscription(continuation.channel)), continuation)
    }

    /// A stream that has already ended: what a subscriber gets from a source that is gone.
    public static func finished() -> EventStream<Element> {
        let (stream, continuation) = makeStream()
        continuation.finish()
        return stream
    }

    /// Starts iterating.
    public func makeAsyncIterator() -> Iterator { Iterator(subscription: subscription) }

    /// Iterates the elements: it takes everything buffered at once and hands it out one by one
    /// without waiting.
    public struct Iterator: AsyncIteratorProtocol {
        /// The iterator never throws.
        public typealias Failure = Never

        @usableFromInline let subscription: EventSubscription<Element>
        @usableFromInline var batch: [Element] = []
        @usableFromInline var index = 0

        init(subscription: EventSubscription<Element>) { self.subscription = subscription }

        /// The next element, or `nil` once the producer finished (or the task was cancelled).
        @inlinable
        public mutating func next() async -> Element? {
            await next(isolation: nil)
        }

        /// The next element, on the caller's isolation (no hop off an actor to wait).
        ///
        /// Inlinable, so that taking an element already buffered is no asynchronous call in the
        /// consumer's module (each would cost task switches); only refilling the batch is.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            if index < batch.count {
                defer { index += 1 }
                return batch[index]
            }
            return await refill(isolation: actor)
        }

        /// Takes the next batch, waiting for one, and returns its first element.
        @usableFromInline
        mutating func refill(isolation actor: isolated (any Actor)?) async -> Element? {
            index = 0
            await subscription.channel.take(into: &batch, isolation: actor)
            guard !batch.isEmpty else { return nil }
            index = 1
            return batch[0]
        }
    }
}

/// Ties a channel to the life of its stream and iterators: once all are gone, the channel is
/// terminated and the producer forgets it, as an `AsyncStream` ends on termination.
@usableFromInline
final class EventSubscription<Element: Sendable>: Sendable {
    let channel: BatchChannel<Element>

    init(_ channel: BatchChannel<Element>) { self.channel = channel }

    deinit { channel.terminate() }
}
