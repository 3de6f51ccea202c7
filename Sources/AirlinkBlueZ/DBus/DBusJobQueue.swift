import Synchronization

/// The jobs of tasks that prefer a D-Bus loop as their executor, queued by other threads: the loop
/// thread takes them between polls; once the loop has ended they go to the global executor.
final class DBusJobQueue: Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var closed = false
    }

    private let state = Mutex(State())

    /// Queues a job; returns `false` when the queue is closed (the job then runs on the global executor).
    func push(_ job: UnownedJob) -> Bool {
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            state.jobs.append(job)
            return true
        }
        if !accepted { Self.runElsewhere([job]) }
        return accepted
    }

    /// Takes the jobs queued so far, in order.
    func take() -> [UnownedJob] {
        state.withLock { state in
            let jobs = state.jobs
            state.jobs.removeAll()
            return jobs
        }
    }

    /// Refuses further jobs and hands `earlier` and the queued jobs, in that order, to the global executor.
    func close(handingOn earlier: [UnownedJob]) {
        let queued = state.withLock { state in
            state.closed = true
            let jobs = state.jobs
            state.jobs.removeAll()
            return jobs
        }
        Self.runElsewhere(earlier + queued)
    }

    private static func runElsewhere(_ jobs: [UnownedJob]) {
        for job in jobs { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}
