import AirlinkCore
import Synchronization

/// Hands every transport event to each subscriber's stream, in the order emitted; subscribers are
/// kept in an array, in the order they subscribed.
final class EventBroadcaster: Sendable {
    private struct State {
        var subscribers: [(id: UInt64, continuation: AsyncStream<TransportEvent>.Continuation)] = []
        var nextID: UInt64 = 0
        var finished = false
    }

    private let state = Mutex(State())

    /// A new stream for one subscriber (already finished if the transport is closed).
    func subscribe() -> AsyncStream<TransportEvent> {
        let (stream, continuation) = AsyncStream<TransportEvent>.makeStream()
        let id: UInt64? = state.withLock { state in
            guard !state.finished else { return nil }
            state.nextID += 1
            state.subscribers.append((state.nextID, continuation))
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in state.subscribers.removeAll { $0.id == id } }
        }
        return stream
    }

    /// Emits events to every subscriber. Called from one thread at a time (the D-Bus loop), which
    /// keeps the order.
    func emit(_ events: [TransportEvent]) {
        guard !events.isEmpty else { return }
        let subscribers = state.withLock { $0.subscribers.map(\.continuation) }
        for event in events {
            for subscriber in subscribers { subscriber.yield(event) }
        }
    }

    /// Ends every stream.
    func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            let subscribers = state.subscribers.map(\.continuation)
            state.subscribers.removeAll()
            return subscribers
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
