import AirlinkCore

extension BlueZTransport {
    /// Sends a call to BlueZ and waits for whichever comes first: its reply, its deadline
    /// (``Configuration/operationTimeout``), the loss of the link it concerns, the adapter going off,
    /// BlueZ going away, or the task's cancellation. Nothing else can keep it waiting.
    ///
    /// - Parameters:
    ///   - context: what is done, for errors.
    ///   - operation: how BlueZ's errors map.
    ///   - timeout: the call's deadline; ``Configuration/operationTimeout`` by default.
    ///   - prepare: under the state's lock, checks the call may go and builds it; returns the message
    ///     and the object path whose link loss fails it (a device, or the adapter for adapter calls).
    func pendingCall(
        context: String, operation kind: BlueZOperation, timeout: Duration? = nil,
        prepare: (inout BlueZTransportState) throws(AirlinkError) -> (DBusMessage, String)
    ) async throws(AirlinkError) -> DBusMessage {
        let result = OneShot<DBusMessage>()
        let (message, operation) = try state.withLock { (state) throws(AirlinkError) -> (DBusMessage, UInt64) in
            let (message, owner) = try prepare(&state)
            let operation = state.nextOperation
            state.nextOperation += 1
            state.operations[operation] = PendingOperation(device: owner) { result.resume(.failure($0)) }
            return (message, operation)
        }
        let call = connection.send(message, timeout: timeout ?? configuration.operationTimeout) { [weak self] reply in
            self?.state.withLock { _ = $0.operations.removeValue(forKey: operation) }
            result.resume(reply.mapError { BlueZErrorMapping.map($0, operation: kind, context: context) })
        }
        let outcome = await withTaskCancellationHandler {
            await result.wait()
        } onCancel: { [connection] in
            result.resume(.failure(AirlinkError(.cancelled, "the operation was cancelled", context: context)))
            connection.cancel(call)
        }
        // A link loss or a power-off removed the operation already; its call ends at its reply or deadline.
        if case .failure(let error) = outcome, error.code == .cancelled {
            state.withLock { _ = $0.operations.removeValue(forKey: operation) }
        }
        return try outcome.get()
    }
}
