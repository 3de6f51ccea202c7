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
    func wait(lock: RadioLock, onCancel: @escaping @Sendable () -> Void) async -> Result<Success, AirlinkError> {
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

/// A central's attempt to connect to a peripheral, from `connect` until the link is usable or the
/// attempt fails.
final class ConnectAttempt: @unchecked Sendable {
    // @unchecked: used under the world's lock.
    let central: VirtualRadio
    let peripheral: PeripheralModel
    let result = PendingResult<LinkInfo>()
    var link: Link?
    var isPending = true
    /// An injected `.noAnswer`: the peripheral ignores this attempt.
    var ignored = false

    init(central: VirtualRadio, peripheral: PeripheralModel) {
        self.central = central
        self.peripheral = peripheral
    }

    var isFinished: Bool { result.isDelivered }

    /// Leaves the peripheral's list of pending attempts (it no longer needs advertising events).
    func leavePending() {
        guard isPending else { return }
        isPending = false
        peripheral.pendingConnects.removeAll { $0 === self }
        peripheral.removeObserver()
    }

    /// Ends the attempt with `outcome`.
    func finish(_ outcome: Result<LinkInfo, AirlinkError>) {
        guard !isFinished else { return }
        leavePending()
        central.attempts.removeAll { $0 === self }
        result.deliver(outcome)
    }

    /// Gives up (timeout or cancellation): a link half set up is closed.
    func abandon(with error: AirlinkError) {
        guard !isFinished else { return }
        finish(.failure(error))
        if let link, !link.isClosed {
            link.attempt = nil
            link.drop(reason: .localHostTerminated)
        }
    }
}
