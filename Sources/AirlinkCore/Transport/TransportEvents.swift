/// What ``Transport/events()`` returns: one subscriber's ``EventStream`` of ``TransportEvent``s.
///
/// Iterate it with `for await`; it ends when the transport shuts down, and cancelling the iterating
/// task ends it too. A transport makes one per subscriber with ``EventStream/makeStream()`` and
/// yields each event to its continuation.
public typealias TransportEvents = EventStream<TransportEvent>
