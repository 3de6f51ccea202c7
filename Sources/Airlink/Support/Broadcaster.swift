import Synchronization

/// Hands each value to every subscriber's stream, in the order they subscribed.
///
/// Subscribers live in an array, never a set or a dictionary, so that the order of delivery is the
/// same in every run (a rule of determinism, Docs/Architecture.md).
final class Broadcaster<Element: Sendable>: Sendable {
    private struct Subscriber {
        let id: Int
        let predicate: (@Sendable (Element) -> Bool)?
        let continuation: AsyncStream<Element>.Continuation
    }

    private struct State {
        var subscribers: [Subscriber] = []
        var nextID = 0
        var finished = false
    }

    private let state = Mutex(State())

    /// Creates a broadcaster with no subscribers.
    init() {}

    /// A new stream of the values that pass `predicate`, from now on.
    func subscribe(
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded,
        where predicate: (@Sendable (Element) -> Bool)? = nil
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: bufferingPolicy)
        let id = state.withLock { state -> Int? in
            guard !state.finished else { return nil }
            state.nextID += 1
            state.subscribers.append(Subscriber(id: state.nextID, predicate: predicate, continuation: continuation))
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { $0.subscribers.removeAll { $0.id == id } }
        }
        return stream
    }

    /// Whether anyone listens.
    var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }

    /// Sends `element` to every subscriber whose predicate admits it.
    func yield(_ element: Element) {
        let subscribers = state.withLock { $0.subscribers }
        for subscriber in subscribers where subscriber.predicate?(element) ?? true {
            subscriber.continuation.yield(element)
        }
    }

    /// Ends every stream; later subscribers get a finished stream.
    func finish() {
        let subscribers = state.withLock { state -> [Subscriber] in
            state.finished = true
            defer { state.subscribers.removeAll() }
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }
}
