#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which simulation, if any, the current thread is driving right now.
///
/// A thread-local slot set by the driver loop while it runs a simulation's jobs and timers. It lets
/// the kernel tell work that belongs to the simulation from work that escaped it: a job enqueued on
/// the simulation's executor by another thread, or work sent to the global executor by a job.
enum DriverThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()

    /// The kernel the current thread is driving, or `nil`.
    static var current: UnsafeMutableRawPointer? { pthread_getspecific(key) }

    /// Marks the current thread as driving `kernel` (or nothing) and returns what it was driving.
    @discardableResult
    static func swap(_ kernel: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, kernel)
        return previous
    }
}

extension DriverThread {
    /// Runs `body` on a driver thread of its own and returns its result once it finishes.
    ///
    /// The driver loop blocks while it runs jobs; on a thread of its own it never holds one of Swift's
    /// cooperative threads, so work that escaped the simulation (which runs there) can still finish.
    /// The thread is one parked after an earlier run when there is one (``DriverPool``): starting a
    /// thread per run cost most of a short run (about 40 µs).
    static func runDetached<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
            DriverPool.start { continuation.resume(returning: body()) }
        }
    }
}
