import Glibc

/// The standby thread: serves the connection while the loop thread is held up by a job.
extension DBusEventLoop {
    /// The standby thread's body (see ``DBusStandby``).
    func runStandby() {
        standby.run { batch in serveWhileStalled(batch: batch) }
    }

    /// Takes `role` while the loop thread runs batch `batch` (app code that held it past the stall
    /// limit): polls, dispatches, delivers and fires deadlines as the loop thread would, until the batch
    /// ends or the loop closes. Jobs queued meanwhile go to the global executor instead of waiting
    /// behind the stalled one; their tasks come back to the loop thread at their next resumption.
    func serveWhileStalled(batch: UInt64) {
        let me = UInt(pthread_self())
        role.withLock { _ in
            loopThread.store(me, ordering: .relaxed)
            standby.serving.store(true, ordering: .sequentiallyConsistent)
            defer {
                standby.serving.store(false, ordering: .sequentiallyConsistent)
                loopThread.store(0, ordering: .relaxed)
            }
            while running && standby.batch == batch {
                drainCommands()
                handOffJobs()
                guard running else { break }
                pollOnce()
                handOffJobs()
                if let lostReason { shutDown(lostReason) }
            }
        }
    }

    /// Sends the jobs due on the loop thread to the global executor.
    private func handOffJobs() {
        guard !localJobs.isEmpty else { return }
        for job in localJobs { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        localJobs.removeAll(keepingCapacity: true)
    }
}
