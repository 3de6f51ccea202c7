import CDBus
import Glibc
import Synchronization

/// What the D-Bus loop's standby thread watches: the loop thread's job batches.
///
/// The loop thread runs the jobs of tasks that prefer it (``BlueZTransport/taskExecutor``) outside
/// its role of serving the connection. A job is app code and may run long or block; while it does,
/// no reply, signal or deadline of the connection would be handled. The standby thread looks at the
/// batch counter once per ``stallLimit``: when the same batch is still running, it takes the role
/// over (``DBusEventLoop/serveWhileStalled(batch:)``) until the batch ends, and sends the jobs queued
/// meanwhile to the global executor. When no batch ran for a whole tick it parks, and the next batch
/// wakes it, so an idle connection costs no wake-ups.
final class DBusStandby: Sendable {
    /// How long a batch may run before the standby serves the connection instead.
    let stallLimit: Duration
    /// Counts batch starts and ends: odd while the loop thread runs a batch.
    private let batches = Atomic<UInt64>(0)
    /// Whether the standby sleeps until the next batch (set by the standby, cleared by whoever wakes it).
    private let parked = Atomic<Bool>(true)
    /// Whether the standby serves the connection now (the loop thread wakes it when its batch ends).
    let serving = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    /// Wakes the parked standby.
    private let wakeFD: Int32

    /// A standby that takes over after `stallLimit`; `nil` when no eventfd could be made.
    init?(stallLimit: Duration) {
        let fd = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard fd >= 0 else { return nil }
        wakeFD = fd
        self.stallLimit = stallLimit
    }

    deinit { close(wakeFD) }

    /// On the loop thread, before it runs a batch of jobs.
    func batchStarts() {
        batches.add(1, ordering: .sequentiallyConsistent)
        if parked.exchange(false, ordering: .sequentiallyConsistent) { wake() }
    }

    /// On the loop thread, after its batch: whether the standby may be serving (the loop must then
    /// wake the connection's poll, so that the standby sees the batch ended).
    func batchEnds() -> Bool {
        batches.add(1, ordering: .sequentiallyConsistent)
        return serving.load(ordering: .sequentiallyConsistent)
    }

    /// The current batch count (odd: a batch is running).
    var batch: UInt64 { batches.load(ordering: .sequentiallyConsistent) }

    /// Ends the standby thread.
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        wake()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// The standby thread's loop: ticks while batches run, parks when none does, and hands each
    /// stalled batch to `serve` (which returns once that batch ended or the loop closed).
    func run(serve: (UInt64) -> Void) {
        var seen = batch
        while !stopped.load(ordering: .sequentiallyConsistent) {
            sleep(parked: parked.load(ordering: .sequentiallyConsistent))
            let now = batch
            if now == seen && now % 2 == 1 {
                serve(now)
                seen = batch
                continue
            }
            if now == seen {
                // No batch for a whole tick: park until the next one starts (it sees `parked`, or this sees it).
                parked.store(true, ordering: .sequentiallyConsistent)
                if batch != now { parked.store(false, ordering: .sequentiallyConsistent) }
            }
            seen = batch
        }
    }

    /// Sleeps one tick, or until woken when parked.
    private func sleep(parked: Bool) {
        var fd = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        let (seconds, attoseconds) = stallLimit.components
        let milliseconds = Int32(clamping: max(1, seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
        if poll(&fd, 1, parked ? -1 : milliseconds) > 0 {
            var counter: UInt64 = 0
            _ = read(wakeFD, &counter, 8)
        }
    }
}
