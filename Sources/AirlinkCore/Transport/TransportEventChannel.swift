import Synchronization

/// The producer's end of one subscriber's ``TransportEvents``: a transport keeps one per subscriber
/// and yields each event to it.
///
/// Cheaper than an `AsyncStream`: a yield appends to a buffer (waking the consumer only if it
/// waits), and the consumer takes everything buffered at once, so a burst of notifications costs
/// one wake-up and no per-element trip through generic runtime code. The buffer is unbounded, as
/// an `AsyncStream`'s default is.
public final class TransportEventChannel: Sendable {
    private struct State {
        var buffer: [TransportEvent] = []
        var waiter: UnsafeContinuation<Void, Never>?
        var finished = false
        var terminated = false
    }

    private let state = Mutex(State())

    /// Creates a channel; ``TransportEvents/makeChannel()`` pairs it with its subscriber's sequence.
    init() {}

    /// Hands `event` to the subscriber; never waits.
    ///
    /// - Returns: `false` once the subscriber has gone (its sequence was dropped or its task
    ///   cancelled): the transport may forget the channel.
    @discardableResult
    public func yield(_ event: TransportEvent) -> Bool {
        let (alive, waiter) = state.withLock { state -> (Bool, UnsafeContinuation<Void, Never>?) in
            if state.terminated { return (false, nil) }
            if state.finished { return (true, nil) }
            state.buffer.append(event)
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume()
        return alive
    }

    /// Ends the sequence: the subscriber gets what is buffered, then the end.
    public func finish() {
        state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Whether the subscriber has gone; yields are dropped from then on.
    public var isTerminated: Bool { state.withLock { $0.terminated } }

    /// The subscriber went away (dropped its sequence, or its task was cancelled while it waited).
    func terminate() {
        state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.terminated = true
            state.finished = true
            state.buffer = []
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Swaps everything buffered into `batch` (empty on entry), waiting while nothing is buffered;
    /// leaves `batch` empty once the channel is finished and drained.
    func take(into batch: inout [TransportEvent], isolation: isolated (any Actor)?) async {
        while true {
            let done = state.withLock { state -> Bool in
                if !state.buffer.isEmpty {
                    swap(&state.buffer, &batch)
                    return true
                }
                return state.finished
            }
            if done { return }
            await withTaskCancellationHandler {
                await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if !state.buffer.isEmpty || state.finished || Task.isCancelled { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                terminate()
            }
        }
    }
}
