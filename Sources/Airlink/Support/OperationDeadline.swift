import AirlinkCore

/// Runs an operation that had to wait for its turn, or must make several transport calls, under the
/// deadline counted from when it was issued: past the deadline the operation is cancelled (given up
/// if still waiting; its transport call abandoned if under way, which a transport answers at once)
/// and the caller gets
/// ``/AirlinkCore/AirlinkError/Code/timeout``.
///
/// The operation runs in a task of its own so that the deadline can interrupt it, but `run` returns
/// only once that task has ended: the operation never outlives the call.
struct OperationDeadline: Sendable {
    let environment: AirlinkEnvironment
    /// When the caller issued the operation.
    let issued: AirlinkInstant

    /// Runs `body`, cancelling it at `issued + timeout`.
    ///
    /// - Parameters:
    ///   - operation: what is done, for the timeout's message: `read 2A19 in 180F on C0:FF:EE:00:00:01`
    ///     (described only on a timeout).
    ///   - timeout: the operation's whole allowance, from `issued`.
    ///   - body: the operation, waiting for its turn included.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` past the deadline; what `body` throws.
    ///   - reason: what the allowance is, for the timeout's message; ATT's transaction timeout by default.
    func run<Value: Sendable>(
        _ operation: @autoclosure () -> String, timeout: Duration, reason: @autoclosure () -> String = Self.attReason,
        _ body: () async throws(AirlinkError) -> Value
    ) async throws(AirlinkError) -> Value {
        let result = await withoutActuallyEscaping(body) { body in
            let work = UnsafeSendableBox(body)
            let task = environment.spawn { () async -> Result<Value, AirlinkError> in
                do throws(AirlinkError) {
                    return .success(try await work.value())
                } catch {
                    return .failure(error)
                }
            }
            let clock = environment.clock
            let timer = environment.spawn { () async -> Bool in
                // try?: sleep throws only when cancelled, as the operation finished in time
                guard (try? await clock.sleep(until: issued.advanced(by: timeout))) != nil else { return false }
                task.cancel()
                return true
            }
            let outcome = await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                task.cancel()
            }
            timer.cancel()
            return (outcome, await timer.value)
        }
        // The deadline cancelled the operation: unless it ended otherwise first, that is a timeout.
        if result.1, case .failure(let error) = result.0, error.code == .cancelled {
            throw AirlinkError(
                .timeout, "\(operation()) did not complete within \(timeout.text) of being issued, \(reason())")
        }
        return try result.0.get()
    }

    /// Why a GATT operation's allowance is what it is.
    static let attReason =
        "the time it waited for its turn behind other operations on the link and any discovery it needed first "
        + "included (ATT's transaction timeout, Core Spec Vol 3, Part F, 3.3.3); it was given up"
}

/// Carries a value that is not `Sendable` into a task that the caller awaits before it returns.
private struct UnsafeSendableBox<Wrapped>: @unchecked Sendable {
    let value: Wrapped
    init(_ value: Wrapped) { self.value = value }
}
