import Glibc

/// The loop as a task executor: jobs of tasks that prefer it run on the loop thread between polls.
extension DBusEventLoop {
    /// Queues a job of a task that prefers this executor; it runs on the loop thread before the next
    /// poll, or on the global executor once the loop has ended (or while the standby serves it).
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if isLoopThread && running {
            localJobs.append(job)
        } else if jobQueue.push(job) {
            // The loop thread takes what its own jobs queue before it polls again, unless the standby serves.
            if !isJobThread || standby.serving.load(ordering: .sequentiallyConsistent) { wake() }
        }
    }

    /// Runs a batch of jobs on the loop thread, without `role`: those they enqueue run on the next turn,
    /// after a poll that does not wait. If the batch runs past the stall limit, the standby serves the
    /// connection meanwhile.
    func runJobs(_ batch: [UnownedJob]) {
        guard !batch.isEmpty else { return }
        jobThread.store(UInt(pthread_self()), ordering: .relaxed)
        standby.batchStarts()
        let executor = asUnownedTaskExecutor()
        for job in batch { job.runSynchronously(on: executor) }
        if standby.batchEnds() { wake() }
        jobThread.store(0, ordering: .relaxed)
    }
}
