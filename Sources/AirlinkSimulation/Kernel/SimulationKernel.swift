import AirlinkCore
import DequeModule
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The heart of a `Simulation`: a task executor, a virtual clock and an escape counter in one.
///
/// Jobs of the simulation's tasks (and of default actors they call) are queued here and run one at
/// a time by the driver loop on the thread that called `run`. Virtual time advances only when no
/// job is ready, jumping to the next timer in (deadline, sequence) order. Nothing here reads the wall
/// clock, so a seed gives the same order of events in every run.
final class SimulationKernel: TaskExecutor, ClockBackend, @unchecked Sendable {
    // @unchecked: every mutable field lives in `state`, behind its Mutex.
    private struct State {
        var ready = Deque<UnownedJob>()
        var timers = TimerQueue()
        var jobsRun: UInt64 = 0
        var timersFired: UInt64 = 0
        var escapes: [String] = []
        var escapeCount = 0
        var driving = false
    }

    private let state = Mutex(State())
    /// Virtual time in nanoseconds: written only by the driver (or between runs), read lock-free.
    private let clockValue = Atomic<Int64>(0)

    init() {
        _ = EscapeHooks.installed
    }

    // MARK: Executor

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        if !isDrivenByCurrentThread && state.withLock({ $0.driving }) {
            noteEscape("a job arrived from a thread outside the simulation while it ran")
        }
        state.withLock { $0.ready.append(unowned) }
    }

    /// Whether the current thread is running this kernel's driver loop.
    var isDrivenByCurrentThread: Bool { DriverThread.current == Unmanaged.passUnretained(self).toOpaque() }

    // MARK: Clock

    var now: AirlinkInstant { virtualNow.airlinkInstant }

    func sleep(until deadline: AirlinkInstant) async throws {
        if !isDrivenByCurrentThread { noteEscape("a task outside the simulation slept on its clock") }
        try Task.checkCancellation()
        let slot = TimerSlot()
        let target = VirtualInstant(deadline)
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let armed = state.withLock { state -> Bool in
                    if slot.cancelledBeforeArming { return false }
                    slot.wake = .continuation(continuation)
                    state.timers.arm(slot, deadline: max(target, relaxedNow))
                    return true
                }
                if !armed { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            if case .continuation(let continuation) = state.withLock({ $0.timers.cancel(slot) }) {
                continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Runs `job` after `delay` of virtual time.
    func scheduleJob(_ job: UnownedJob, after delay: Duration) {
        state.withLock { state in
            state.timers.arm(
                Wake.job(job), deadline: relaxedNow + VirtualDuration(max(delay, .zero)))
        }
    }

    /// Calls `action` on the driver thread at `deadline` (or now, if it has passed), in (deadline,
    /// arming order) with every other timer.
    ///
    /// The virtual radio schedules its air and link events this way: a synchronous call per event,
    /// without a task per advertisement or packet.
    func schedule(at deadline: VirtualInstant, _ action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.timers.arm(Wake.action(action), deadline: max(deadline, relaxedNow))
        }
    }

    /// Calls `target.timerFired(tag)` on the driver thread at `deadline` (or now, if it has passed),
    /// in (deadline, arming order) with every other timer: ``schedule(at:_:)`` for hot paths, without
    /// a closure context per timer.
    func schedule(at deadline: VirtualInstant, _ target: any TimerTarget, tag: TimerTag) {
        state.withLock { state in
            state.timers.arm(Wake.target(target, tag), deadline: max(deadline, relaxedNow))
        }
    }

    /// Ends what still waits as the simulation goes away, so that no task stays suspended forever
    /// holding what it captured (a device manager never shut down, a connection waiting to reconnect,
    /// an app's `for await` on events).
    ///
    /// Without moving time: runs the jobs that are ready (those whose streams the radio just ended),
    /// then resumes every task sleeping on the virtual clock with `CancellationError` and runs what
    /// that made ready, a few rounds at most (a task that ignores the error and sleeps again is left);
    /// then drops the remaining timers: their actions and delayed jobs never run.
    func windDown() {
        for _ in 0..<Self.windDownRounds {
            _ = drive(until: now) { false }
            let wakes = state.withLock { state -> [Wake] in
                var wakes: [Wake] = []
                while let wake = state.timers.popDue(atOrBefore: VirtualInstant(nanosecondsSinceStart: .max)) {
                    wakes.append(wake)
                }
                return wakes
            }
            var resumed = false
            for case .continuation(let continuation) in wakes {
                continuation.resume(throwing: CancellationError())
                resumed = true
            }
            guard resumed else { break }
        }
        _ = drive(until: now) { false }
        discardTimers()
    }

    /// How many times ``windDown()`` cancels sleepers and runs what that made ready.
    private static let windDownRounds = 4

    /// Drops every armed timer (the simulation is going away): their actions and jobs never run.
    func discardTimers() {
        let discarded = state.withLock { state -> TimerQueue in
            defer { state.timers = TimerQueue() }
            return state.timers
        }
        _ = discarded  // released outside the lock: actions may own objects whose deinit locks
    }

    /// The current virtual time.
    var virtualNow: VirtualInstant { VirtualInstant(nanosecondsSinceStart: clockValue.load(ordering: .acquiring)) }

    /// The current virtual time, read by the driver (or under the lock, which the driver holds to move it).
    private var relaxedNow: VirtualInstant {
        VirtualInstant(nanosecondsSinceStart: clockValue.load(ordering: .relaxed))
    }

    // MARK: Escapes

    func noteEscape(_ what: String) {
        state.withLock { state in
            state.escapeCount += 1
            if state.escapes.count < 8 { state.escapes.append(what) }
        }
    }

    /// How many times work escaped, and the first few descriptions.
    var escapes: (count: Int, first: [String]) { state.withLock { ($0.escapeCount, $0.escapes) } }

    /// Jobs run and timers fired so far.
    var counters: (jobs: UInt64, timers: UInt64, pendingTimers: Int) {
        state.withLock { ($0.jobsRun, $0.timersFired, $0.timers.count) }
    }

    // MARK: Driver

    /// Advances virtual time to `instant` if it lies ahead; no timer may be due before it.
    func advanceTime(to instant: AirlinkInstant) {
        setTime(VirtualInstant(instant))
    }

    /// Moves virtual time forward to `value` (never back).
    private func setTime(_ instant: VirtualInstant) {
        if instant > relaxedNow { clockValue.store(instant.nanosecondsSinceStart, ordering: .releasing) }
    }

    /// Waits up to `polls` × 200 µs of real time for a job to arrive from outside; returns whether one did.
    private func awaitForeignJobs(upTo polls: Int) -> Bool {
        for _ in 0..<polls {
            if state.withLock({ !$0.ready.isEmpty }) { return true }
            usleep(200)  // Real time on purpose: escaped work runs in real time, elsewhere.
        }
        return false
    }

    /// Why a drive stopped.
    enum Stop: Equatable {
        /// The condition became true.
        case done
        /// The next timer lies past the limit; time now stands at the limit.
        case reachedLimit
        /// Nothing is ready and no timer is armed, yet the condition is false.
        case stalled
    }

    /// Runs jobs and fires timers until `isDone()` holds, time would pass `limit`, or nothing is left.
    func drive(until limit: AirlinkInstant?, isDone: () -> Bool) -> Stop {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let previous = DriverThread.swap(me)
        state.withLock { $0.driving = true }
        defer {
            state.withLock { $0.driving = false }
            DriverThread.swap(previous)
        }
        // Jobs reach the kernel as a task executor (tasks started with its executor preference, and
        // default actors they call), so they run as task-executor jobs. Running them isolated to
        // the kernel as a serial executor made every return to nonisolated code a new job: seven
        // jobs per AsyncStream element instead of none (Docs/adr/0007). No actor may take the
        // kernel as its serial executor while this holds.
        let task = asUnownedTaskExecutor()
        let limitValue = limit.map(VirtualInstant.init)
        var escapesAtStart = state.withLock { $0.escapeCount }
        // The jobs taken from the run queue at once: one lock for every job ready at that moment, not one
        // a job (a tenth of the kernel's cost a read, Docs/Performance.md). Jobs they make ready are taken
        // in the next round, so every job still runs in arrival order.
        var batch = Deque<UnownedJob>()
        while true {
            // Run every ready job, in arrival order.
            while true {
                state.withLock { state in
                    swap(&batch, &state.ready)
                    state.jobsRun &+= UInt64(batch.count)
                }
                if batch.isEmpty { break }
                while let job = batch.popFirst() { job.runSynchronously(on: task) }
            }
            if isDone() { return .done }
            // Advance virtual time to the next timer and fire it.
            let (wake, stop) = state.withLock { state -> (Wake?, Stop?) in
                // Work that escaped may still come back from another thread: let it, before time moves.
                if state.escapeCount > escapesAtStart { return (nil, nil) }
                guard let deadline = state.timers.nextDeadline() else { return (nil, .stalled) }
                if let limitValue, deadline > limitValue {
                    setTime(limitValue)
                    return (nil, .reachedLimit)
                }
                setTime(deadline)
                state.timersFired &+= 1
                return (state.timers.popDue(atOrBefore: deadline), nil)
            }
            if let stop { return stop }
            if wake == nil, state.withLock({ $0.escapeCount }) > escapesAtStart {
                // Give escaped work time to come back before virtual time moves on (200 ms), or before
                // declaring a stall (5 s: a loaded machine may be slow to run it). Only runs that already
                // broke determinism pay this; then they go on as the escape-free path would.
                let stalled = state.withLock { $0.timers.count == 0 }
                if awaitForeignJobs(upTo: stalled ? 25_000 : 1_000) { continue }
                escapesAtStart = state.withLock { $0.escapeCount }
                continue
            }
            // Consumed: the timer's target is not retained again for the call.
            switch consume wake {
            case .continuation(let continuation): continuation.resume()
            case .job(let job): job.runSynchronously(on: task)
            case .action(let action): action()
            case .target(let target, let tag): target.timerFired(tag)
            case nil: break
            }
        }
    }
}
