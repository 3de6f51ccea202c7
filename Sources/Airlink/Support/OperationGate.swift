import AirlinkCore
import DequeModule
import Synchronization

/// A first-in, first-out asynchronous lock: one operation at a time, the others wait their turn.
///
/// A GATT client may have one ATT request outstanding per link (Core Spec Vol 3, Part F, 3.3.2), so
/// every operation on a device runs inside its gate, while the API stays concurrent. When a link
/// drops, ``failWaiters(with:)`` fails every operation still waiting, at once: nothing hangs.
final class OperationGate: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<AirlinkError?, Never>
    }

    private struct State {
        var busy = false
        var waiters = Deque<Waiter>()
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Creates an open gate.
    init() {}

    /// The number of operations waiting for their turn.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Runs `body` when every operation that entered before it has finished.
    ///
    /// - Throws: what `body` throws; the error given to ``failWaiters(with:)`` while waiting;
    ///   ``/AirlinkCore/AirlinkError/Code/cancelled`` when the task is cancelled while waiting.
    func run<Value>(_ body: () async throws(AirlinkError) -> Value) async throws(AirlinkError) -> Value {
        try await acquire()
        defer { release() }
        return try await body()
    }

    /// Fails every waiting operation with `error`; the one running, if any, goes on.
    func failWaiters(with error: AirlinkError) {
        let waiters = state.withLock { state -> Deque<Waiter> in
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: error) }
    }

    private func acquire() async throws(AirlinkError) {
        if state.withLock({ state -> Bool in
            if state.busy { return false }
            state.busy = true
            return true
        }) {
            return
        }
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        let failure: AirlinkError? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<AirlinkError?, Never>) in
                let immediate = state.withLock { state -> AirlinkError?? in
                    if !state.busy {
                        state.busy = true
                        return .some(nil)
                    }
                    if Task.isCancelled { return .some(Self.cancelled) }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: Self.cancelled)
        }
        if let failure { throw failure }
    }

    private func release() {
        let next = state.withLock { state -> Waiter? in
            if let next = state.waiters.popFirst() { return next }  // the turn passes on; still busy
            state.busy = false
            return nil
        }
        next?.continuation.resume(returning: nil)
    }

    private static let cancelled = AirlinkError(
        .cancelled, "the operation was cancelled while it waited for its turn on the link")
}
