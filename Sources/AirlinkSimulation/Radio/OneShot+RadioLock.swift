import AirlinkCore

extension OneShot {
    /// Waits for the result; `onCancel` runs under the world's lock if the calling task is cancelled
    /// (it usually delivers a cancellation).
    func wait(lock: RadioLock, onCancel: @Sendable () -> Void) async -> Result<Value, AirlinkError> {
        await withTaskCancellationHandler {
            await wait()
        } onCancel: {
            lock.withLock { onCancel() }
        }
    }
}
