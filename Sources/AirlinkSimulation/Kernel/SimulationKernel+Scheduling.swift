@_spi(ExperimentalScheduling) import _Concurrency

/// Real-time sleeps that reach the simulation's executor: counted as escapes, then run in virtual time.
///
/// Swift routes `Task.sleep` of a task that prefers this executor here. The sleep is a bug in the
/// simulated code (it should sleep on `environment.clock`), so it is counted; the job still wakes
/// after the same duration of virtual time, which keeps the run going and its order fixed.
extension SimulationKernel: SchedulingExecutor {
    func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
        noteEscape("a job slept on real time (Task.sleep or a system clock)")
        let duration = (delay as? Duration) ?? .zero
        scheduleJob(UnownedJob(job), after: duration)
    }

    func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
        noteEscape("a job slept on real time (Task.sleep or a system clock)")
        let duration = (clock.now.duration(to: instant) as? Duration) ?? .zero
        scheduleJob(UnownedJob(job), after: duration)
    }
}
