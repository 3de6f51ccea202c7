import AirlinkCore

/// A result that a radio event delivers to an awaiting caller, whichever comes first.
///
/// Used under the world's lock: ``deliver(_:)`` resumes the caller or keeps the result until it waits.
final class PendingResult<Success: Sendable>: @unchecked Sendable {
    // @unchecked: used under the world's lock.
    private var continuation: UnsafeContinuation<Result<Success, AirlinkError>, Never>?
    private var result: Result<Success, AirlinkError>?
    private(set) var isDelivered = false

    /// Hands over the result once; later calls are ignored.
    func deliver(_ result: Result<Success, AirlinkError>) {
        guard !isDelivered else { return }
        isDelivered = true
        if let continuation {
            self.continuation = nil
            continuation.resume(returning: result)
        } else {
            self.result = result
        }
    }

    /// Waits for the result; `onCancel` runs (under the lock) if the calling task is cancelled.
    func wait(lock: RadioLock, onCancel: @Sendable () -> Void) async -> Result<Success, AirlinkError> {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Success, AirlinkError>, Never>) in
                lock.withLock {
                    if let result {
                        continuation.resume(returning: result)
                    } else {
                        self.continuation = continuation
                    }
                }
            }
        } onCancel: {
            lock.withLock { onCancel() }
        }
    }
}
