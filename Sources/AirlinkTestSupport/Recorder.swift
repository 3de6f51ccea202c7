import AirlinkCore
import Synchronization

/// Collects values from any task, for assertions after a simulation ran.
package final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    package init() {}

    package func append(_ value: Value) { storage.withLock { $0.append(value) } }

    package var values: [Value] { storage.withLock { $0 } }
}

extension Recorder {
    /// Records every element of `stream`, in a task of `environment`.
    package static func recording<Sequence: AsyncSequence & Sendable>(
        _ stream: Sequence, in environment: AirlinkEnvironment
    ) -> Recorder<Value> where Sequence.Element == Value, Sequence.Failure == Never {
        let recorder = Recorder<Value>()
        environment.spawn {
            for await value in stream { recorder.append(value) }
        }
        return recorder
    }
}
