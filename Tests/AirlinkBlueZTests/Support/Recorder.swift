import Synchronization

/// A typed recorder for tests: tasks append what they observe, the test reads it afterwards.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    init() {}

    func append(_ value: Value) { storage.withLock { $0.append(value) } }

    var values: [Value] { storage.withLock { $0 } }
}
