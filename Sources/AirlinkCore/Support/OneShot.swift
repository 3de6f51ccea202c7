import Synchronization

/// A result delivered once to one waiting task, by whichever comes first: a reply, a link loss, a
/// timeout, a cancellation. Later deliveries are ignored, so racing paths never resume a continuation
/// twice (which is why an unchecked continuation is safe here: the state below guarantees one resume),
/// and a result delivered before the task waits is kept for it.
///
/// One allocation per operation (the lock is stored inline): the BlueZ transport creates one for each
/// call to BlueZ, the virtual radio for each connection attempt (its ATT requests wait on their link
/// operation instead, which saves the allocation and the lock on every request).
///
/// Called from another module, a generic method runs unspecialized (`@inlinable` alone does not
/// let another module specialize a `package` method with this compiler), looking up generic
/// metadata on every call: that cost traced ATT reads on the virtual radio a tenth of their time
/// (Docs/Performance.md). The hot results, a value's bytes and nothing, are prespecialized here
/// (`@_specialize(exported: true)`), and other modules call those.
package final class OneShot<Value: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var continuation: UnsafeContinuation<Result<Value, AirlinkError>, Never>?
        @usableFromInline var result: Result<Value, AirlinkError>?
        @usableFromInline var delivered = false

        @inlinable init() {}
    }

    @usableFromInline let state = Mutex(State())

    /// A result not delivered yet.
    @inlinable
    @_specialize(exported:true,where Value == [UInt8]) @_specialize(exported:true,where Value == Void)
    package init() {}

    /// Whether a result was delivered (the waiting task may not have taken it yet).
    @inlinable package var isDelivered: Bool { state.withLock { $0.delivered } }

    /// Delivers the result; returns whether this call was the first.
    @inlinable @discardableResult
    @_specialize(exported:true,where Value == [UInt8]) @_specialize(exported:true,where Value == Void)
    package func resume(_ result: Result<Value, AirlinkError>) -> Bool {
        let (first, continuation) = state.withLock {
            state -> (Bool, UnsafeContinuation<Result<Value, AirlinkError>, Never>?) in
            guard !state.delivered else { return (false, nil) }
            state.delivered = true
            guard let continuation = state.continuation else {
                state.result = result
                return (true, nil)
            }
            state.continuation = nil
            return (true, continuation)
        }
        continuation?.resume(returning: result)
        return first
    }

    /// Waits for the result (once: a second waiter would wait forever).
    @inlinable
    @_specialize(exported:true,where Value == [UInt8]) @_specialize(exported:true,where Value == Void)
    package func wait() async -> Result<Value, AirlinkError> {
        await withUnsafeContinuation { continuation in
            let ready: Result<Value, AirlinkError>? = state.withLock { state in
                if let result = state.result {
                    state.result = nil
                    return result
                }
                state.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
