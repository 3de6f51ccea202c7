import Synchronization

/// The tasks of a run that wait on streams no one ends (what an inspector's centrals do, the values
/// a client follows): cancelled when the run is over.
///
/// Each holds what it writes to (the trace, the recorder); left waiting, they would keep a finished
/// run's trace in memory, about 30–70 KB a seed in a sweep.
final class ScenarioBackgroundTasks: Sendable {
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// Keeps `task`, to cancel it with the others when the run is over.
    func add(_ task: Task<Void, Never>) { tasks.withLock { $0.append(task) } }

    /// Cancels every task kept; each ends in the simulation's next run or as it winds down.
    func cancelAll() {
        let kept = tasks.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for task in kept { task.cancel() }
    }
}
