import Synchronization

/// A channel from producers to one consumer that hands values over in batches: the transport's
/// event streams (``EventStream``, fanned out by ``Broadcaster``) and the layers' notification lanes are built on it.
///
/// `AsyncStream` resumes a continuation for every element, a trip through the executor and through
/// generic runtime code per value; here an offer appends to a buffer (waking the consumer only if
/// it waits), and the consumer takes everything buffered at once and iterates a local array, so a
/// burst of notifications costs one wake-up. Offers never wait: with a capacity, a full buffer
/// refuses the value (``Offer/dropped``) and the producer accounts for it; without one the buffer
/// is unbounded, as an `AsyncStream`'s default is.
///
/// The class is SPI-public (its members stay `package`): with Swift 6.3.1, another module specializes the
/// inlinable methods of a public class but not those of a `package` one, and the layers offer every
/// notification through it (an unspecialized call looked generic metadata up twice per value). Reproduced in
/// Scripts/compiler-repros/package-inlinable (`bash Scripts/compiler-repros/run` says whether it still holds).
@_spi(AirlinkInternals)
public final class BatchChannel<Element: Sendable>: Sendable {
    /// What became of an offered value.
    @usableFromInline package enum Offer: Sendable, Equatable {
        /// Buffered for the consumer.
        case enqueued
        /// Refused: the buffer is full.
        case dropped
        /// Refused: the channel was finished.
        case finished
        /// Refused: the consumer has gone (dropped its sequence, or its task was cancelled).
        case terminated
    }

    @usableFromInline
    struct State {
        @usableFromInline var buffer: [Element] = []
        @usableFromInline var waiter: UnsafeContinuation<Void, Never>?
        @usableFromInline var finished = false
        @usableFromInline var terminated = false

        @usableFromInline init() {}
    }

    /// The most values buffered and not yet taken; `nil` for no bound.
    @usableFromInline package let capacity: Int?
    @usableFromInline let state = Mutex(State())

    /// Creates a channel.
    ///
    /// - Parameter capacity: the most values buffered and not yet taken (at least 1); `nil` for no bound.
    package init(capacity: Int? = nil) { self.capacity = capacity.map { max($0, 1) } }

    deinit {
        state.withLock { $0.waiter }?.resume()
    }

    /// Offers a value; never waits. (Inlinable, as the other hot methods: the layers use the channel
    /// from another module, where an unspecialized generic call costs a fifth of a notification.)
    ///
    /// The value is moved into the buffer, not copied (a copy retains each reference it holds).
    @inlinable
    package func offer(_ element: consuming Element) -> Offer {
        var slot = Optional(element)
        let (offer, waiter) = state.withLock { state -> (Offer, UnsafeContinuation<Void, Never>?) in
            if state.terminated { return (.terminated, nil) }
            if state.finished { return (.finished, nil) }
            if let capacity, state.buffer.count >= capacity { return (.dropped, nil) }
            state.buffer.append(slot.take()!)
            defer { state.waiter = nil }
            return (.enqueued, state.waiter)
        }
        waiter?.resume()
        return offer
    }

    /// Ends the channel: the consumer gets what is buffered, then the end.
    @inlinable
    package func finish() {
        state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// The consumer went away: what is buffered is dropped and every later offer is refused.
    @inlinable
    package func terminate() {
        state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.terminated = true
            state.finished = true
            state.buffer = []
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Whether the channel was finished, or its consumer went away.
    @inlinable
    package var isFinished: Bool { state.withLock { $0.finished } }

    /// Whether the consumer went away.
    @inlinable
    package var isTerminated: Bool { state.withLock { $0.terminated } }

    /// Swaps everything buffered into `batch` (whose old contents are dropped, its storage reused),
    /// waiting while nothing is buffered; leaves `batch` empty once the channel is finished and
    /// drained. Cancelling the waiting task terminates the channel.
    ///
    /// Always inlined: each asynchronous frame between the consumer and its suspension costs two
    /// task switches a wake-up (on the way in and on the way back), each asking the runtime for the
    /// task's executor preference under its status-record lock; inlined into the subscription's
    /// `take`, a scan's consumer pays one frame fewer per advertisement (Docs/Performance.md).
    @inlinable @inline(__always)
    package func take(into batch: inout [Element], isolation: isolated (any Actor)? = #isolation) async {
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
                terminate()
            }
        }
    }
}
