import Synchronization

/// A bounded channel from many producers to one consumer that hands values over in batches.
///
/// `AsyncStream` resumes a continuation for every element, which costs a trip through the
/// executor per value; this channel lets the consumer take everything buffered at once and then
/// iterate a local array, so a burst of notifications costs one wake-up, not one per value. Offers
/// never wait: a full buffer refuses the value (``Offer/dropped``) and the producer accounts for it.
final class ValueChannel<Element: Sendable>: Sendable {
    /// What became of an offered value.
    enum Offer { case enqueued, dropped, finished }

    private struct State {
        var buffer: [Element] = []
        var waiter: UnsafeContinuation<Void, Never>?
        var finished = false
    }

    /// The most values buffered and not yet taken.
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) { self.capacity = max(capacity, 1) }

    deinit {
        state.withLock { $0.waiter }?.resume()
    }

    /// Offers a value; never waits.
    func offer(_ element: Element) -> Offer {
        let (offer, waiter) = state.withLock { state -> (Offer, UnsafeContinuation<Void, Never>?) in
            if state.finished { return (.finished, nil) }
            if state.buffer.count >= capacity { return (.dropped, nil) }
            state.buffer.append(element)
            defer { state.waiter = nil }
            return (.enqueued, state.waiter)
        }
        waiter?.resume()
        return offer
    }

    /// Ends the channel: the consumer gets what is buffered, then the end.
    func finish() {
        state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Whether the channel was finished (by ``finish()`` or the consumer's cancellation).
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Swaps everything buffered into `batch` (whose old contents are dropped, its storage reused),
    /// waiting while nothing is buffered; leaves `batch` empty once the channel is finished and
    /// drained. Cancelling the waiting task finishes the channel.
    func take(into batch: inout [Element], isolation: isolated (any Actor)? = #isolation) async {
        batch.removeAll(keepingCapacity: true)
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
                finish()
            }
        }
    }
}
