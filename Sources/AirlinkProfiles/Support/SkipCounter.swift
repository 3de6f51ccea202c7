import Synchronization

/// A count shared by the copies of a sequence: the values it skipped.
final class SkipCounter: Sendable {
    private let storage = Mutex(0)

    /// How many values were skipped so far; read from any thread.
    var count: Int { storage.withLock { $0 } }

    /// Adds one.
    func increment() { storage.withLock { $0 += 1 } }
}
