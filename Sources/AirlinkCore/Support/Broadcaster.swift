import Synchronization

/// Hands each element to every subscriber's ``EventStream``, in the order they subscribed: the one
/// fan-out of Airlink's event sources (the transports' events, the peripheral role's events, the
/// layers' event buses, the inspector's changes).
///
/// - Ending: ``finish()`` ends every stream after what it buffered, and a source that is gone ends
///   them too (the broadcaster's deinit finishes it); a subscriber that comes after the end gets an
///   ended stream.
/// - Slow subscribers: a yield never waits. Each subscriber has its own unbounded buffer, as an
///   `AsyncStream`'s default policy has, so a subscriber that does not read holds its own elements
///   in memory and delays nobody else.
/// - Order: subscribers live in an array, never a set or a dictionary, so that delivery order is the
///   same in every run (Docs/Architecture.md, determinism). Concurrent yields are not ordered among
///   themselves; a source that needs one order yields from one thread or under its own lock.
/// - Departures: a subscriber whose stream was dropped (or whose task was cancelled) is forgotten at
///   the next yield or subscription.
package final class Broadcaster<Element: Sendable>: Sendable {
    private struct Subscriber: Sendable {
        let predicate: (@Sendable (Element) -> Bool)?
        let continuation: EventStream<Element>.Continuation
    }

    private struct State {
        var subscribers: [Subscriber] = []
        var finished = false
    }

    private let state = Mutex(State())

    /// Creates a broadcaster with no subscribers.
    package init() {}

    deinit { finish() }

    /// A new stream of the elements that `predicate` admits (all by default), from now on; an ended
    /// stream once the broadcaster has finished.
    package func subscribe(where predicate: (@Sendable (Element) -> Bool)? = nil) -> EventStream<Element> {
        let (stream, continuation) = EventStream<Element>.makeStream()
        let added = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.subscribers.removeAll { $0.continuation.isTerminated }
            state.subscribers.append(Subscriber(predicate: predicate, continuation: continuation))
            return true
        }
        if !added { continuation.finish() }
        return stream
    }

    /// Whether any subscriber still listens.
    package var hasSubscribers: Bool {
        state.withLock { state in state.subscribers.contains { !$0.continuation.isTerminated } }
    }

    /// Whether ``finish()`` ran.
    package var isFinished: Bool { state.withLock { $0.finished } }

    /// Hands `element` to every subscriber whose predicate admits it; never waits.
    ///
    /// Prespecialized for the transports' events, which the radio yields from another module (an
    /// unspecialized call looks generic metadata up on every event). The last subscriber gets the
    /// element itself, the others a copy: with one subscriber (a scan's consumer) the event reaches
    /// its buffer without being copied (a copy of an advertisement retains each of its arrays).
    @_specialize(exported:true,where Element == TransportEvent)
    package func yield(_ element: consuming Element) {
        let subscribers = state.withLock { $0.subscribers }
        guard let last = subscribers.indices.last else { return }
        var gone = false
        for subscriber in subscribers[..<last] where subscriber.predicate?(element) ?? true {
            if !subscriber.continuation.yield(copy element) { gone = true }
        }
        let final = subscribers[last]
        if final.predicate?(element) ?? true, !final.continuation.yield(element) { gone = true }
        if gone { forgetDeparted() }
    }

    /// Hands each of `elements` to every subscriber, in order; never waits.
    package func yield(contentsOf elements: some Sequence<Element>) {
        let subscribers = state.withLock { $0.subscribers }
        guard !subscribers.isEmpty else { return }
        var gone = false
        for element in elements {
            for subscriber in subscribers where subscriber.predicate?(element) ?? true {
                if !subscriber.continuation.yield(element) { gone = true }
            }
        }
        if gone { forgetDeparted() }
    }

    /// Ends every stream after what it buffered; later subscribers get an ended stream.
    package func finish() {
        let subscribers = state.withLock { state -> [Subscriber] in
            state.finished = true
            defer { state.subscribers.removeAll() }
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }

    private func forgetDeparted() {
        state.withLock { $0.subscribers.removeAll { $0.continuation.isTerminated } }
    }
}
