import CDBus
import Glibc
import Synchronization

/// The thread that owns a libdbus connection: it reads and dispatches incoming messages, completes
/// pending calls, fires timers and delivers signals.
///
/// Method calls are written by the calling thread itself (libdbus is thread-safe), so a call costs
/// no thread hop on the way out; the loop thread, blocked in `poll` on the socket, reads the reply
/// and completes the call. Only the loop thread dispatches, and a sender holds `dispatchLock` from
/// `dbus_connection_send_with_reply` to `dbus_pending_call_set_notify`, so no reply is dispatched
/// before its notify function is set. Everything else (subscriptions, timers, cancellation, close)
/// is a command the caller queues before waking the loop through an eventfd. Every call's deadline
/// fires on time whether or not anything else happens on the bus: a sender whose deadline comes before
/// the loop's planned wake-up wakes it (``DBusWakePlan``). Completions, signal
/// handlers and timers run on the loop thread, in the order the messages arrived; they must not block.
///
/// Dispatching only collects what arrived (``Delivery``); the completions and handlers run after the
/// loop has let go of `dispatchLock`. A completion usually resumes a task, whose next call would
/// otherwise find the lock still held by the loop thread and sleep on it: a second thread hop per call.
/// For the same reason the loop does not touch the libdbus connection (whose lock a sender holds while
/// it writes) between running the deliveries and sleeping in `poll`: the socket is known, senders say
/// when output is left over (``writePending``), and the dispatch queue is empty after dispatching.
///
/// The loop is also a `TaskExecutor`: a task that prefers it runs its jobs on the loop thread, between
/// polls, so the reply to its call resumes it there without waking another thread (see
/// ``BlueZTransport/taskExecutor``). Such jobs are app code and may block: the loop thread runs them
/// outside its role of serving the connection (`role`), and when a batch of them runs longer than the
/// standby's stall limit, a standby thread takes the role over until the batch ends (``DBusStandby``),
/// so replies, signals and deadlines go on. The loop-thread state below is touched only by the
/// thread holding `role`.
final class DBusEventLoop: @unchecked Sendable, TaskExecutor {
    /// What callers ask of the loop thread, besides sending.
    enum Command {
        case cancel(id: UInt64)
        case subscribe(id: UInt64, DBusMatchRule, SignalHandler)
        case unsubscribe(id: UInt64)
        case timer(id: UInt64, deadline: ContinuousClock.Instant, @Sendable () -> Void)
        case cancelTimer(id: UInt64)
        case onDisconnect(@Sendable (String) -> Void)
        case close
    }

    typealias Completion = @Sendable (Result<DBusMessage, DBusError>) -> Void
    typealias SignalHandler = @Sendable (DBusSignal) -> Void

    private struct Shared {
        var commands: [Command] = []
        var closedReason: String?
    }

    struct Pending: @unchecked Sendable {
        var call: OpaquePointer?
        /// The call, kept to name it (``member``) only when it fails.
        var message: DBusMessage
        var deadline: ContinuousClock.Instant?
        var timeout: Duration
        var completion: Completion

        /// `org.bluez.GattCharacteristic1.ReadValue`, for errors.
        var member: String { message.qualifiedMember }
    }

    /// A completion or signal handler due, collected while dispatching and run once the dispatch lock is free.
    enum Delivery {
        case reply(Completion, Result<DBusMessage, DBusError>)
        case signal(SignalHandler, DBusSignal)
    }

    struct Calls {
        var pending: [UInt64: Pending] = [:]
        var cancelledEarly: Set<UInt64> = []
    }

    struct Subscription {
        var id: UInt64
        var rule: DBusMatchRule
        var handler: SignalHandler
    }

    private struct Timer {
        var id: UInt64
        var deadline: ContinuousClock.Instant
        var work: @Sendable () -> Void
    }

    let connection: OpaquePointer
    private let wakeFD: Int32
    /// The connection's socket.
    private let socketFD: Int32
    /// Set by whoever sends when libdbus could not write everything at once: the loop then polls for
    /// `POLLOUT` and writes the rest.
    private let writePending = Atomic<Bool>(false)
    private let shared = Mutex(Shared())
    let calls = Mutex(Calls())
    /// Held by the loop thread while it dispatches (and while it cancels or expires calls), and by
    /// other threads from sending a call to setting its notify function.
    private let dispatchLock = Mutex(())
    /// Held by whichever thread serves the connection: the loop thread, except while it runs jobs.
    let role = Mutex(())
    /// The thread holding `role` (0: none).
    let loopThread = Atomic<UInt>(0)
    /// The loop thread while it runs a batch of jobs (0: none): jobs it enqueues need no wake-up.
    let jobThread = Atomic<UInt>(0)
    /// Takes over serving the connection while a batch of jobs runs too long.
    let standby: DBusStandby
    /// When the loop wakes by itself next; senders of earlier deadlines wake it.
    private let wakePlan = DBusWakePlan()
    private let nextID = Atomic<UInt64>(1)

    // Loop-thread state: touched only by the thread holding `role`.
    var subscriptions: [Subscription] = []
    private var timers: [Timer] = []
    private var disconnectHandlers: [@Sendable (String) -> Void] = []
    var running = true
    var lostReason: String?
    /// Whether libdbus still holds incoming messages to dispatch (after running out of memory, or
    /// before the first dispatch).
    private var dispatchRemaining = true
    /// What dispatching found, in arrival order; see ``deliverCollected()``.
    var collected: [Delivery] = []
    /// Jobs of tasks that prefer this executor, enqueued by other threads.
    let jobQueue = DBusJobQueue()
    /// Jobs to run on the loop thread before it polls again (loop thread only).
    var localJobs: [UnownedJob] = []

    /// Takes over an open connection and starts the loop thread and its standby.
    ///
    /// - Parameter stallLimit: how long a batch of jobs may hold the loop thread before the standby
    ///   serves the connection instead.
    init(connection: OpaquePointer, stallLimit: Duration = .milliseconds(10)) throws(DBusError) {
        self.connection = connection
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeFD >= 0, let standby = DBusStandby(stallLimit: stallLimit) else {
            if wakeFD >= 0 { close(wakeFD) }
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw .connectionFailed(address: "", name: "eventfd", message: "errno \(errno)")
        }
        self.standby = standby
        var fd: Int32 = -1
        _ = dbus_connection_get_unix_fd(connection, &fd)
        socketFD = fd
        dbus_connection_set_exit_on_disconnect(connection, 0)
        let context = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_add_filter(connection, dbusEventLoopFilter, context, nil)
        try startThread { $0.runStandby() }
        do throws(DBusError) {
            try startThread { $0.run() }
        } catch {
            standby.stop()
            throw error
        }
    }

    /// Starts a detached thread that runs `body` with the loop retained.
    private func startThread(_ body: @escaping (DBusEventLoop) -> Void) throws(DBusError) {
        final class Start {
            let loop: DBusEventLoop
            let body: (DBusEventLoop) -> Void
            init(_ loop: DBusEventLoop, _ body: @escaping (DBusEventLoop) -> Void) {
                self.loop = loop
                self.body = body
            }
        }
        let box = Unmanaged.passRetained(Start(self, body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { argument in
                let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
                start.body(start.loop)
                return nil
            }, box)
        guard created == 0 else {
            Unmanaged<Start>.fromOpaque(box).release()
            throw .connectionFailed(address: "", name: "pthread_create", message: "error \(created)")
        }
        pthread_detach(thread)
    }

    deinit { close(wakeFD) }

    /// A fresh identifier for a call, subscription or timer.
    func makeID() -> UInt64 { nextID.add(1, ordering: .relaxed).oldValue }

    /// Why the loop ended, or `nil` while it runs.
    var closedReason: String? { shared.withLock { $0.closedReason } }

    /// Queues a command; if the loop has ended, handles it at once on the caller's thread.
    func submit(_ command: Command) {
        let closedReason: String? = shared.withLock { state in
            if let reason = state.closedReason { return reason }
            state.commands.append(command)
            return nil
        }
        if let closedReason {
            switch command {
            case .onDisconnect(let handler): handler(closedReason)
            // Work scheduled after the loop ended runs at once, so that nothing waits on a dead loop.
            case .timer(_, _, let work): work()
            default: break
            }
            return
        }
        wake()
    }

    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Whether the calling thread serves the connection now (holds `role`).
    var isLoopThread: Bool { loopThread.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Whether the calling thread is the loop thread running jobs of tasks that prefer this executor.
    var isJobThread: Bool { jobThread.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Sends a method call from any thread; `completion` runs once, on the loop thread, or at once
    /// on the caller's thread when the call cannot be sent.
    func send(id: UInt64, message: DBusMessage, deadline: ContinuousClock.Instant?, completion: @escaping Completion) {
        let failure: Result<DBusMessage, DBusError>?
        if isLoopThread {
            failure = sendLocked(id: id, message: message, deadline: deadline, completion: completion)
        } else {
            failure = dispatchLock.withLock { _ in
                sendLocked(id: id, message: message, deadline: deadline, completion: completion)
            }
        }
        if let failure {
            completion(failure)
        } else if let deadline, !isLoopThread, wakePlan.needsWake(for: deadline) {
            // The loop may be asleep with no deadline, or a later one: this call's must fire on a quiet bus.
            wake()
        }
    }

    /// Sends and registers a call while the loop cannot dispatch; returns a failure to report.
    private func sendLocked(
        id: UInt64, message: DBusMessage, deadline: ContinuousClock.Instant?, completion: @escaping Completion
    ) -> Result<DBusMessage, DBusError>? {
        if let reason = shared.withLock({ $0.closedReason }) {
            return .failure(.disconnected("\(reason); \(message.qualifiedMember) was not sent"))
        }
        if calls.withLock({ $0.cancelledEarly.remove(id) }) != nil { return .failure(.cancelled) }
        var call: OpaquePointer?
        let timeout = deadline.map { ContinuousClock.now.duration(to: $0) } ?? .zero
        // Airlink keeps its own deadlines; libdbus's timeouts need a main loop's timeout functions.
        guard dbus_connection_send_with_reply(connection, message.pointer, &call, Int32.max) != 0, let call else {
            return .failure(.disconnected("the bus connection is closed; \(message.qualifiedMember) was not sent"))
        }
        let entry = Pending(call: call, message: message, deadline: deadline, timeout: timeout, completion: completion)
        calls.withLock { $0.pending[id] = entry }
        let context = Unmanaged.passRetained(PendingContext(loop: self, id: id)).toOpaque()
        dbus_pending_call_set_notify(call, dbusEventLoopPendingNotify, context, dbusEventLoopReleaseContext)
        noteSent()
        return nil
    }

    /// After a send: what the socket did not take now, the loop writes once it is writable again.
    func noteSent() {
        guard dbus_connection_has_messages_to_send(connection) != 0 else { return }
        writePending.store(true, ordering: .sequentiallyConsistent)
        if !isLoopThread { wake() }
    }

    // MARK: - The loop thread

    /// The loop thread: serves the connection while holding `role`, and runs the jobs that came due
    /// (``runJobs(_:)``) without it.
    private func run() {
        let me = UInt(pthread_self())
        var first = true
        while true {
            let batch = role.withLock { _ -> [UnownedJob]? in
                loopThread.store(me, ordering: .relaxed)
                defer { loopThread.store(0, ordering: .relaxed) }
                if !first && running {
                    // Jobs the last batch queued first, so that the poll does not sleep on them.
                    drainCommands()
                    if running { pollOnce() }
                    if let lostReason { shutDown(lostReason) }
                }
                guard running else { return nil }
                drainCommands()
                let batch = localJobs
                localJobs.removeAll(keepingCapacity: true)
                return batch
            }
            guard let batch else { break }
            first = false
            runJobs(batch)
        }
        standby.stop()
    }

    /// Sleeps until the socket, a command or a deadline needs the loop, reads and dispatches what
    /// arrived, then runs the deliveries, expired calls and due timers.
    func pollOnce() {
        let wantWrite =
            writePending.exchange(false, ordering: .sequentiallyConsistent)
            && dbus_connection_has_messages_to_send(connection) != 0
        var fds = (
            pollfd(fd: socketFD, events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0), revents: 0),
            pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        )
        let timeout = dispatchRemaining || !localJobs.isEmpty ? 0 : pollTimeout()
        _ = withUnsafeMutableBytes(of: &fds) { poll($0.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, timeout) }
        if fds.1.revents != 0 {
            var counter: UInt64 = 0
            _ = read(wakeFD, &counter, 8)
        }
        if fds.0.revents != 0 || wantWrite {
            _ = dbus_connection_read_write(connection, 0)
            if wantWrite && dbus_connection_has_messages_to_send(connection) != 0 {
                writePending.store(true, ordering: .sequentiallyConsistent)
            }
        }
        dispatchRemaining = dispatchLock.withLock { _ in
            var status = dbus_connection_dispatch(connection)
            while status == DBUS_DISPATCH_DATA_REMAINS { status = dbus_connection_dispatch(connection) }
            return status != DBUS_DISPATCH_COMPLETE
        }
        if lostReason == nil && fds.0.revents != 0 && dbus_connection_get_is_connected(connection) == 0 {
            lostReason = "the bus closed the connection"
        }
        deliverCollected()
        fireDeadlines()
    }

    private func pollTimeout() -> Int32 {
        let now = ContinuousClock.now
        guard let wakeAt = wakePlan.plan(now: now, nearest: nearestDeadline) else { return -1 }
        let remaining = now.duration(to: wakeAt)
        if remaining <= .zero { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(min(milliseconds, Int64(Int32.max)))
    }

    /// The earliest deadline of the pending calls and the timers.
    private func nearestDeadline() -> ContinuousClock.Instant? {
        var nearest = calls.withLock { calls -> ContinuousClock.Instant? in
            var nearest: ContinuousClock.Instant?
            for call in calls.pending.values {
                if let deadline = call.deadline, nearest.map({ deadline < $0 }) ?? true { nearest = deadline }
            }
            return nearest
        }
        for timer in timers where nearest.map({ timer.deadline < $0 }) ?? true { nearest = timer.deadline }
        return nearest
    }

    private func fireDeadlines() {
        let now = ContinuousClock.now
        let due = calls.withLock { calls in calls.pending.values.contains { $0.deadline.map { $0 <= now } ?? false } }
        if due {
            failCalls(
                with: { .timeout(member: $0.member, after: $0.timeout) },
                taking: {
                    calls.withLock { calls -> [Pending] in
                        let ids = calls.pending.filter { $0.value.deadline.map { $0 <= now } ?? false }.keys.sorted()
                        return ids.compactMap { calls.pending.removeValue(forKey: $0) }
                    }
                })
        }
        while !timers.isEmpty,
            let index = timers.indices.filter({ timers[$0].deadline <= now }).min(by: {
                (timers[$0].deadline, timers[$0].id) < (timers[$1].deadline, timers[$1].id)
            })
        {
            let timer = timers.remove(at: index)
            timer.work()
        }
    }

    /// The one way a call ends without its reply: `take` removes the calls under the dispatch lock (so
    /// that no reply of theirs is dispatched meanwhile), then each is cancelled in libdbus (a late reply is
    /// dropped) and completed with `error`, in the order taken, on the calling thread.
    private func failCalls(with error: (Pending) -> DBusError, taking take: () -> [Pending]) {
        let taken = dispatchLock.withLock { _ in take() }
        for call in taken {
            if let pendingCall = call.call {
                dbus_pending_call_cancel(pendingCall)
                dbus_pending_call_unref(pendingCall)
            }
            call.completion(.failure(error(call)))
        }
    }

    func drainCommands() {
        let commands = shared.withLock { state in
            let commands = state.commands
            state.commands.removeAll()
            return commands
        }
        localJobs.append(contentsOf: jobQueue.take())
        for command in commands { perform(command) }
    }

    private func perform(_ command: Command) {
        switch command {
        case .cancel(let id):
            failCalls(
                with: { _ in .cancelled },
                taking: {
                    calls.withLock { calls -> [Pending] in
                        guard let call = calls.pending.removeValue(forKey: id) else {
                            // Not sent yet: the sender finds it here and does not send it.
                            calls.cancelledEarly.insert(id)
                            return []
                        }
                        return [call]
                    }
                })
        case .subscribe(let id, let rule, let handler):
            subscriptions.append(Subscription(id: id, rule: rule, handler: handler))
        case .unsubscribe(let id):
            subscriptions.removeAll { $0.id == id }
        case .timer(let id, let deadline, let work):
            timers.append(Timer(id: id, deadline: deadline, work: work))
        case .cancelTimer(let id):
            timers.removeAll { $0.id == id }
        case .onDisconnect(let handler):
            disconnectHandlers.append(handler)
        case .close:
            shutDown("the connection was closed")
        }
    }

    func shutDown(_ reason: String) {
        guard running else { return }
        running = false
        // Under the dispatch lock, so that no sender registers a call after the pending ones are failed.
        failCalls(
            with: { _ in .disconnected(reason) },
            taking: {
                shared.withLock { state in state.closedReason = reason }
                return calls.withLock { calls in
                    let sorted = calls.pending.sorted { $0.key < $1.key }.map(\.value)
                    calls.pending.removeAll()
                    return sorted
                }
            })
        // Commands queued before the reason was set are handled below; later ones are handled in submit().
        let leftovers = shared.withLock { state in
            let commands = state.commands
            state.commands.removeAll()
            return commands
        }
        for command in leftovers {
            switch command {
            case .onDisconnect(let handler): disconnectHandlers.append(handler)
            case .timer(_, _, let work): work()
            default: break
            }
        }
        timers.removeAll()
        subscriptions.removeAll()
        let handlers = disconnectHandlers
        disconnectHandlers.removeAll()
        for handler in handlers { handler(reason) }
        // Tasks that prefer this executor continue on the global one.
        jobQueue.close(handingOn: localJobs)
        localJobs.removeAll()
        dbus_connection_remove_filter(connection, dbusEventLoopFilter, Unmanaged.passUnretained(self).toOpaque())
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }
}
