/// The producer's end of one subscriber's ``TransportEvents``: a transport keeps one per subscriber
/// and yields each event to it.
///
/// Cheaper than an `AsyncStream` (a `BatchChannel`, unbounded): a yield appends to a buffer,
/// waking the consumer only if it waits, and the consumer takes everything buffered at once.
public final class TransportEventChannel: Sendable {
    let channel = BatchChannel<TransportEvent>()

    /// Creates a channel; ``TransportEvents/makeChannel()`` pairs it with its subscriber's sequence.
    init() {}

    /// Hands `event` to the subscriber; never waits.
    ///
    /// - Returns: `false` once the subscriber has gone (its sequence was dropped or its task
    ///   cancelled): the transport may forget the channel.
    @discardableResult
    public func yield(_ event: TransportEvent) -> Bool { channel.offer(event) != .terminated }

    /// Ends the sequence: the subscriber gets what is buffered, then the end.
    public func finish() { channel.finish() }

    /// Whether the subscriber has gone; yields are dropped from then on.
    public var isTerminated: Bool { channel.isTerminated }

    /// The subscriber went away.
    func terminate() { channel.terminate() }

    /// Swaps everything buffered into `batch`, waiting while nothing is buffered; leaves `batch`
    /// empty once the channel is finished and drained.
    func take(into batch: inout [TransportEvent], isolation: isolated (any Actor)?) async {
        await channel.take(into: &batch, isolation: isolation)
    }
}
