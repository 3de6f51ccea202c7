import AirlinkCore

// Real time throughout this file, on purpose: these helpers bound waits on the BlueZ backend and on the
// fake BlueZ, which are other threads and another process, never a simulation's virtual time.

/// The first element of `sequence` that `match` turns into a value, waiting `limit` of real time at
/// most (`nil` then, or when the sequence ends or throws first).
package func firstWithin<S: AsyncSequence & Sendable, Value: Sendable>(
    _ sequence: S, _ limit: Duration, where match: @escaping @Sendable (S.Element) -> Value?
) async -> Value? where S.Element: Sendable {
    await valueWithin(limit) {
        do {
            for try await element in sequence {
                if let value = match(element) { return value }
            }
        } catch {}
        return nil
    }
}

/// What `work` gives, or `nil` when `limit` of real time passes first (then `work` is cancelled).
package func valueWithin<Value: Sendable>(
    _ limit: Duration, _ work: @escaping @Sendable () async -> Value?
) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await work() }
        group.addTask {
            // The deadline itself, racing the work; nothing is guessed from it (try?: cancelled when the
            // work answered first).
            try? await Task.sleep(for: limit)
            return nil
        }
        let found = await group.next() ?? nil
        group.cancelAll()
        return found
    }
}

/// Runs `work` in a task, then `start` (what the test does to it, once it is in flight), and waits for
/// the task `limit` at most, cancelling it then: its result and how long it took after `start`, or
/// `nil` if it had not ended.
package func endedWithin<Value: Sendable>(
    _ limit: Duration, _ work: @escaping @Sendable () async throws -> Value,
    after start: (@Sendable () async throws -> Void)? = nil
) async throws -> (result: Result<Value, any Error>, took: Duration)? {
    // A real task and the real clock on purpose: the work runs against another process in real time.
    let task = Task { try await work() }
    try await start?()
    let began = ContinuousClock.now
    let finished = await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            _ = await task.result
            return true
        }
        group.addTask {
            // The deadline itself, racing the task; nothing is guessed from it (try?: cancelled when the
            // work answered first).
            try? await Task.sleep(for: limit)
            return false
        }
        let first = await group.next() ?? false
        task.cancel()
        group.cancelAll()
        return first
    }
    guard finished else { return nil }
    return (await task.result, began.duration(to: .now))
}

/// The code of the `AirlinkError` a result failed with, if it did.
package func code<Value>(_ result: Result<Value, any Error>) -> AirlinkError.Code? {
    guard case .failure(let error) = result else { return nil }
    return (error as? AirlinkError)?.code
}
