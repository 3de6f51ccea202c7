import AirlinkCore

/// How the scripted transport runs GATT requests: one at a time per link, first come first served,
/// each with a deadline 30 s after its call (ATT's transaction timeout, Core Spec Vol 3, Part F,
/// 3.3.3) that counts the time spent waiting for the link's turn, as the transport contract asks.
extension ScriptedTransport {
    /// A request waiting for its link's turn: resumed exactly once, with `nil` when the turn is its,
    /// or with the error that took it out of the queue (its deadline, its task's cancellation).
    package struct Turn {
        let ticket: Int
        let continuation: CheckedContinuation<AirlinkError?, Never>
        /// Takes the request out of the queue at its deadline.
        let timer: Task<Void, Never>
    }

    /// ATT's transaction timeout: how long after its call a request fails with `timeout`.
    static let transactionTimeout: Duration = .seconds(30)

    /// Runs one request in the link's turn (FIFO), after the request latency; fails with `linkLost`
    /// if the link drops meanwhile, with `timeout` when no answer came 30 s after the call, and with
    /// `cancelled` when its task is cancelled while it waits.
    func request<Value>(
        _ id: DeviceID, _ what: @autoclosure () -> String, _ body: (inout Device) throws(AirlinkError) -> Value
    ) async throws(AirlinkError) -> Value {
        try requirePower(what())
        guard let device = devices[id] else { throw AirlinkError(.deviceNotFound, "no device \(id) is known") }
        guard device.connected else { throw AirlinkError(.notConnected, "\(id) is not connected") }
        let generation = device.generation
        let deadline = environment.clock.now.advanced(by: Self.transactionTimeout)
        record(what())
        if devices[id]!.busy {
            if let refusal = await waitForTurn(id, until: deadline) { throw refusal }
        } else {
            devices[id]!.busy = true
        }
        defer { passTurn(id) }
        devices[id]!.outstanding += 1
        maxOutstanding = max(maxOutstanding, devices[id]!.outstanding)
        defer { devices[id]!.outstanding -= 1 }
        guard devices[id]!.generation == generation, devices[id]!.connected else { throw Self.linkLost(id) }
        let ignored = devices[id]!.ignored > 0
        if ignored { devices[id]!.ignored -= 1 }
        if ignored || latency > .zero {
            // The answer comes after the latency, or never; the caller waits until its deadline at most.
            let remaining = environment.clock.now.duration(to: deadline)
            let answer = ignored ? nil : latency
            let waited = answer.map { min($0, remaining) } ?? remaining
            if let interruption = await waits.wait(id, .request, for: waited) { throw interruption }
            guard let answer, answer <= remaining else { throw Self.timedOut(id) }
        }
        guard devices[id]!.generation == generation, devices[id]!.connected else { throw Self.linkLost(id) }
        if !devices[id]!.failures.isEmpty { throw devices[id]!.failures.removeFirst() }
        return try body(&devices[id]!)
    }

    /// Waits until the request is first in the link's queue: `nil` then, or the error of its deadline
    /// or of its task's cancellation, whichever comes first (each turn is resumed exactly once).
    private func waitForTurn(_ id: DeviceID, until deadline: AirlinkInstant) async -> AirlinkError? {
        lastTicket += 1
        let ticket = lastTicket
        let environment = self.environment
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<AirlinkError?, Never>) in
                if Task.isCancelled {
                    continuation.resume(returning: Self.cancelled)
                    return
                }
                let clock = environment.clock
                let timer = environment.spawn {
                    // try?: a cancelled timer means the request left the queue first.
                    guard (try? await clock.sleep(until: deadline)) != nil else { return }
                    await self.leaveQueue(id, ticket, with: Self.timedOut(id))
                }
                devices[id]!.queue.append(Turn(ticket: ticket, continuation: continuation, timer: timer))
            }
        } onCancel: {
            _ = environment.spawn { await self.leaveQueue(id, ticket, with: Self.cancelled) }
        }
    }

    /// Takes a waiting request out of the queue with `error`; does nothing if it already left.
    private func leaveQueue(_ id: DeviceID, _ ticket: Int, with error: AirlinkError) {
        guard let index = devices[id]?.queue.firstIndex(where: { $0.ticket == ticket }) else { return }
        let turn = devices[id]!.queue.remove(at: index)
        turn.timer.cancel()
        turn.continuation.resume(returning: error)
    }

    /// Gives the link to the next waiting request, or frees it.
    private func passTurn(_ id: DeviceID) {
        guard !devices[id]!.queue.isEmpty else {
            devices[id]!.busy = false
            return
        }
        let turn = devices[id]!.queue.removeFirst()
        turn.timer.cancel()
        turn.continuation.resume(returning: nil)
    }

    private static let cancelled = AirlinkError(.cancelled, "the operation's task was cancelled")

    private static func timedOut(_ id: DeviceID) -> AirlinkError {
        AirlinkError(
            .timeout,
            "\(id) did not answer within \(transactionTimeout.text) of the call (ATT's transaction timeout, "
                + "time waiting for the link's turn included)")
    }
}
