/// What ``Transport/events()`` returns: one subscriber's `AsyncSequence` of ``TransportEvent``s.
///
/// Backed by a ``TransportEventChannel`` (the virtual radio's, cheap per event) or by an
/// `AsyncStream` (``init(_:)``, for transports that already have one). Iterate it with `for await`;
/// it ends when the transport shuts down, and cancelling the iterating task ends it too.
public struct TransportEvents: AsyncSequence, Sendable {
    /// Each event the transport observed, in order.
    public typealias Element = TransportEvent
    /// The sequence never throws.
    public typealias Failure = Never

    private enum Source: Sendable {
        case stream(AsyncStream<TransportEvent>)
        case channel(TransportEventSubscription)
    }

    private let source: Source

    /// Wraps an `AsyncStream` of events.
    public init(_ stream: AsyncStream<TransportEvent>) { source = .stream(stream) }

    private init(channel: TransportEventChannel) { source = .channel(TransportEventSubscription(channel)) }

    /// A new subscriber's sequence and the channel a transport yields its events to.
    ///
    /// ```swift
    /// let (events, channel) = TransportEvents.makeChannel()
    /// subscribers.append(channel)  // then channel.yield(event) for each event
    /// return events
    /// ```
    public static func makeChannel() -> (events: TransportEvents, channel: TransportEventChannel) {
        let channel = TransportEventChannel()
        return (TransportEvents(channel: channel), channel)
    }

    /// Starts iterating.
    public func makeAsyncIterator() -> Iterator {
        switch source {
        case .stream(let stream): Iterator(stream: stream.makeAsyncIterator(), subscription: nil)
        case .channel(let subscription): Iterator(stream: nil, subscription: subscription)
        }
    }

    /// Iterates the events: from a channel, it takes everything buffered at once and hands it out
    /// one by one without waiting.
    public struct Iterator: AsyncIteratorProtocol {
        /// Each event the transport observed, in order.
        public typealias Element = TransportEvent
        /// The iterator never throws.
        public typealias Failure = Never

        var stream: AsyncStream<TransportEvent>.Iterator?
        let subscription: TransportEventSubscription?
        var batch: [TransportEvent] = []
        var index = 0

        /// The next event, or `nil` once the transport shut down (or the task was cancelled).
        public mutating func next() async -> TransportEvent? {
            await next(isolation: nil)
        }

        /// The next event, on the caller's isolation (no hop off an actor to wait).
        public mutating func next(isolation actor: isolated (any Actor)?) async -> TransportEvent? {
            guard let subscription else { return await stream?.next(isolation: actor) }
            if index < batch.count {
                defer { index += 1 }
                return batch[index]
            }
            batch.removeAll(keepingCapacity: true)
            index = 0
            await subscription.channel.take(into: &batch, isolation: actor)
            guard !batch.isEmpty else { return nil }
            index = 1
            return batch[0]
        }
    }
}

/// Ties a channel to the life of its subscriber's sequence and iterators: once all are gone, the
/// channel is terminated and the transport forgets it, as an `AsyncStream` ends on termination.
final class TransportEventSubscription: Sendable {
    let channel: TransportEventChannel

    init(_ channel: TransportEventChannel) { self.channel = channel }

    deinit { channel.terminate() }
}
