import AirlinkCore
import Synchronization

/// Hands every transport event to each subscriber's ``/AirlinkCore/TransportEvents``, in the order emitted;
/// subscribers are kept in an array, in the order they subscribed, each with the batched channel
/// the virtual radio uses too.
final class EventBroadcaster: Sendable {
    private struct State {
        var subscribers: [TransportEventChannel] = []
        var finished = false
    }

    private let state = Mutex(State())

    /// A new sequence for one subscriber (already finished if the transport is closed).
    func subscribe() -> TransportEvents {
        let (events, channel) = TransportEvents.makeChannel()
        let added = state.withLock { state in
            guard !state.finished else { return false }
            state.subscribers.append(channel)
            return true
        }
        if !added { channel.finish() }
        return events
    }

    /// Emits events to every subscriber; subscribers that went away are forgotten. Called from one
    /// thread at a time (the D-Bus loop), which keeps the order.
    func emit(_ events: [TransportEvent]) {
        guard !events.isEmpty else { return }
        let subscribers = state.withLock { $0.subscribers }
        var gone = false
        for event in events {
            for subscriber in subscribers where !subscriber.yield(event) { gone = true }
        }
        if gone { state.withLock { $0.subscribers.removeAll { $0.isTerminated } } }
    }

    /// Ends every sequence.
    func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            defer { state.subscribers.removeAll() }
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
