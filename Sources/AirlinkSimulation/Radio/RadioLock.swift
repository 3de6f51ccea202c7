#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A recursive mutex: the virtual radio's one lock.
///
/// Recursive because peripheral behaviours run inside radio events and call back into the radio
/// through their context. In practice the lock is never contended (everything of a simulation runs
/// on its driver thread); it is there so that a call from outside is safe, not fast.
///
/// The radio's models skip Swift's checks for speed (`@unchecked Sendable`, `@exclusivity(unchecked)`)
/// on the promise that their state is touched only under this lock; debug builds check the promise
/// (``assertHeld(_:file:line:)``), as NIOEmbedded's `EmbeddedEventLoop` checks it runs on its thread.
/// Release builds keep no count and check nothing.
final class RadioLock: @unchecked Sendable {
    // @unchecked: the pthread mutex is the synchronisation itself.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #if DEBUG
        /// How many ``withLock(_:)`` calls hold the lock now (recursion counted), read and written only
        /// while holding it.
        private var depth = 0
    #endif

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        #if DEBUG
            depth += 1
            defer { depth -= 1 }  // runs before the unlock above
        #endif
        return try body()
    }

    /// In debug builds, stops the process unless the calling thread holds the lock; in release builds,
    /// does nothing.
    ///
    /// - Parameter what: what was touched (a model's member), for the message.
    @inline(__always)
    func assertHeld(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            if let holder = holderUnlessCaller() {
                assertionFailure(
                    "\(what()) touched without the radio's lock (\(holder)): the virtual radio's state is used "
                        + "only under `world.lock.withLock`", file: file, line: line)
            }
        #endif
    }

    #if DEBUG
        /// Who holds the lock if the calling thread does not: "another thread" or "nobody"; `nil` when
        /// the caller holds it.
        ///
        /// A try-lock tells the cases apart without reading state another thread writes: it fails only
        /// while another thread holds the mutex, and once it succeeds the count is the caller's to read
        /// (zero: nobody held it).
        private func holderUnlessCaller() -> String? {
            guard pthread_mutex_trylock(mutex) == 0 else { return "another thread holds it" }
            defer { pthread_mutex_unlock(mutex) }
            return depth > 0 ? nil : "nobody holds it"
        }
    #endif
}
