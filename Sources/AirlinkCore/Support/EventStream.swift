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
        return (EventStream(subscription: EventSubscription.make(continuation.channel)), continuation)
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
        ///
        /// Inlinable, so that the consumer's module specializes it; the wait itself is the
        /// subscription's (`EventSubscription.take(into:isolation:)`), compiled for the transports'
        /// events in this module.
        @inlinable
        mutating func refill(isolation actor: isolated (any Actor)?) async -> Element? {
            index = 0
            await subscription.take(into: &batch, isolation: actor)
            guard !batch.isEmpty else { return nil }
            index = 1
            return batch[0]
        }
    }
}

/// Ties a channel to the life of its stream and iterators: once all are gone, the channel is
/// terminated and the producer forgets it, as an `AsyncStream` ends on termination.
///
/// It also takes the consumer's batches: `take(into:isolation:)` is a class method so that the
/// element types with a subclass here (`TransportEventSubscription`) wait in code compiled for
/// them. A consumer in another module calls it from its own specialization of the iterator, and
/// called generically, waiting for each batch looked generic metadata up (the channel's state, its
/// array, `withTaskCancellationHandler`'s context): nearly half of the instructions of a scan of
/// 10,000 advertisers (Docs/Performance.md, "What the hot paths rely on"). A prespecialized asynchronous method
/// (`@_specialize(exported: true)`) was not picked up by its callers here with Swift 6.3.1; a minimal two-module
/// program does pick one up (an `async`, `package`, `isolation:` method alike), so what stopped it here is not
/// pinned down, and no reproduction is kept: the subclass stays because it measured faster.
@usableFromInline
class EventSubscription<Element: Sendable>: @unchecked Sendable {
    // @unchecked: not final (a subclass per specialized element type); its one field is a constant.
    let channel: BatchChannel<Element>

    init(_ channel: BatchChannel<Element>) { self.channel = channel }

    deinit { channel.terminate() }

    /// The subscription to `channel`: the subclass compiled for its element type, if there is one.
    static func make(_ channel: BatchChannel<Element>) -> EventSubscription<Element> {
        if let channel = channel as? BatchChannel<TransportEvent>,
            let subscription = TransportEventSubscription(channel) as? EventSubscription<Element>
        {
            return subscription
        }
        return EventSubscription(channel)
    }

    /// Swaps everything buffered into `batch`, waiting while nothing is
    /// (`BatchChannel.take(into:isolation:)`).
    @usableFromInline
    func take(into batch: inout [Element], isolation: isolated (any Actor)?) async {
        await channel.take(into: &batch, isolation: isolation)
    }
}

/// The subscription of a stream of `TransportEvent`s, with its wait compiled for them: the radio's
/// scans deliver one per virtual advertisement, and the consumer waits for each.
final class TransportEventSubscription: EventSubscription<TransportEvent>, @unchecked Sendable {
    // @unchecked: as its superclass.
    override func take(into batch: inout [TransportEvent], isolation: isolated (any Actor)?) async {
        await channel.take(into: &batch, isolation: isolation)
    }
}
