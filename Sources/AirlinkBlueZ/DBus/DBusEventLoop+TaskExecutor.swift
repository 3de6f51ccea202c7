/// The loop as a task executor: jobs of tasks that prefer it run on the loop thread between polls.
extension DBusEventLoop {
    /// Queues a job of a task that prefers this executor; it runs on the loop thread before the next
    /// poll, or on the global executor once the loop has ended.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if isLoopThread && running {
            localJobs.append(job)
        } else if jobQueue.push(job) {
            wake()
        }
    }

    /// Runs the jobs queued so far on the loop thread; those they enqueue run on the next turn, after a
    /// poll that does not wait.
    func runJobs() {
        guard !localJobs.isEmpty else { return }
        let batch = localJobs
        localJobs.removeAll(keepingCapacity: true)
        let executor = asUnownedTaskExecutor()
        for job in batch { job.runSynchronously(on: executor) }
    }
}
