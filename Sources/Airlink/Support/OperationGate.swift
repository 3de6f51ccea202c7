import AirlinkCore
import DequeModule
import Synchronization

/// A first-in, first-out asynchronous lock: one operation at a time, the others wait their turn.
///
/// A GATT client may have one ATT request outstanding per link (Core Spec Vol 3, Part F, 3.3.2), so
/// every operation on a device runs inside its gate, while the API stays concurrent. When a link
/// drops, ``failWaiters(with:)`` fails every operation still waiting, at once: nothing hangs.
///
/// A place in the line is taken synchronously (``enter()``), so an operation keeps the place of the
/// moment it was issued even when it waits for its turn from another task.
final class OperationGate: Sendable {
    /// A place in the line, taken by ``enter()``.
    enum Ticket: Sendable {
        /// The gate was free: the holder runs now, and must ``release()``.
        case granted
        /// Behind others; wait for the turn with ``wait(_:)``.
        case queued(Int)
    }

    private struct Waiter {
        let id: Int
        var continuation: CheckedContinuation<AirlinkError?, Never>?
        /// The turn came before the holder started waiting.
        var granted = false
        /// The wait failed before the holder started waiting.
        var failure: AirlinkError?

        /// Still in line: neither given the turn nor failed.
        var isPending: Bool { !granted && failure == nil }
    }

    private struct State {
        var busy = false
        var waiters = Deque<Waiter>()
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Creates an open gate.
    init() {}

    /// Whether an operation holds the gate now.
    var isBusy: Bool { state.withLock { $0.busy } }

    /// The number of operations waiting for their turn.
    var waiting: Int { state.withLock { $0.waiters.count(where: \.isPending) } }

    /// Runs `body` when every operation that entered before it has finished.
    ///
    /// - Throws: what `body` throws; the error given to ``failWaiters(with:)`` while waiting;
    ///   ``/AirlinkCore/AirlinkError/Code/cancelled`` when the task is cancelled while waiting.
    func run<Value>(_ body: () async throws(AirlinkError) -> Value) async throws(AirlinkError) -> Value {
        try await run(enter(), body)
    }

    /// Runs `body` in the turn of `ticket`, then passes the turn on.
    ///
    /// - Throws: as ``run(_:)``.
    func run<Value>(
        _ ticket: Ticket, _ body: () async throws(AirlinkError) -> Value
    ) async throws(AirlinkError) -> Value {
        try await wait(ticket)
        defer { release() }
        return try await body()
    }

    /// Takes a place in the line: the turn at once if the gate is free.
    func enter() -> Ticket {
        state.withLock { state -> Ticket in
            if !state.busy {
                state.busy = true
                return .granted
            }
            state.nextID += 1
            state.waiters.append(Waiter(id: state.nextID))
            return .queued(state.nextID)
        }
    }

    /// Waits for the turn of `ticket`; on return the caller holds the gate and must ``release()``.
    ///
    /// - Throws: the error given to ``failWaiters(with:)``; ``/AirlinkCore/AirlinkError/Code/cancelled`` when the
    ///   task is cancelled while waiting (its place is given up).
    func wait(_ ticket: Ticket) async throws(AirlinkError) {
        guard case .queued(let id) = ticket else { return }
        let failure: AirlinkError? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<AirlinkError?, Never>) in
                let immediate = state.withLock { state -> AirlinkError?? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                        return .some(Self.cancelled)  // given up by cancellation before waiting
                    }
                    let waiter = state.waiters[index]
                    if !waiter.isPending {
                        state.waiters.remove(at: index)
                        return .some(waiter.failure)
                    }
                    if Task.isCancelled {
                        state.waiters.remove(at: index)
                        return .some(Self.cancelled)
                    }
                    state.waiters[index].continuation = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            giveUp(id)
        }
        if let failure { throw failure }
    }

    /// Fails every waiting operation with `error`; the one running, if any, goes on.
    func failWaiters(with error: AirlinkError) {
        let waiters = state.withLock { state -> [CheckedContinuation<AirlinkError?, Never>] in
            var resumed: [CheckedContinuation<AirlinkError?, Never>] = []
            var kept = Deque<Waiter>()
            for var waiter in state.waiters {
                if let continuation = waiter.continuation {
                    resumed.append(continuation)
                } else {
                    if waiter.isPending { waiter.failure = error }  // told when it starts waiting
                    kept.append(waiter)
                }
            }
            state.waiters = kept
            return resumed
        }
        for waiter in waiters { waiter.resume(returning: error) }
    }

    /// Passes the turn to the next operation in line, or opens the gate.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<AirlinkError?, Never>?? in
            guard let index = state.waiters.firstIndex(where: \.isPending) else {
                state.busy = false
                return .none
            }
            if let continuation = state.waiters[index].continuation {
                state.waiters.remove(at: index)
                return .some(continuation)  // the turn passes on; still busy
            }
            state.waiters[index].granted = true  // its turn; it takes it when it starts waiting
            return .some(nil)
        }
        if case .some(let continuation?) = next { continuation.resume(returning: nil) }
    }

    /// Gives up the place `id` (its task was cancelled); a turn it was already given passes on.
    private func giveUp(_ id: Int) {
        let (waiter, hadTurn) = state.withLock { state -> (Waiter?, Bool) in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return (nil, false) }
            let waiter = state.waiters.remove(at: index)
            return (waiter, waiter.granted)
        }
        waiter?.continuation?.resume(returning: Self.cancelled)
        if hadTurn { release() }
    }

    private static let cancelled = AirlinkError(
        .cancelled, "the operation was cancelled while it waited for its turn on the link")
}
