import Dispatch

/// Runs `body`, which blocks its thread (waiting for a child process, reading a pipe to its end), on Dispatch's
/// global queue rather than on the cooperative pool that every test's tasks share.
///
/// That pool has one thread per core. On a 2-core machine two tests blocked there stall every other test of the run:
/// a controller test waiting for its server's task took 54 s instead of 0.01 s while the CLI suites, which waited for
/// `airlink` that way, ran beside it. Tests that wait for a process await this instead.
package func offThePool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
