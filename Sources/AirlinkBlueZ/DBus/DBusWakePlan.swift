import Synchronization

/// When the D-Bus loop thread wakes next by itself, shared with the threads that send calls, so that
/// every call's deadline fires on time even when nothing else happens on the bus.
///
/// The loop thread sleeps in `poll` until its socket, its eventfd or the planned instant. A call
/// sent from another thread registers its deadline without the loop seeing it; if that deadline
/// comes before the planned wake (or none is planned), the sender wakes the loop, which plans again.
/// A planned wake that is still ahead is kept even once the call it was for has been answered: it
/// costs one spurious wake-up at most, and spares the next calls (whose deadlines come later) the
/// thread hop of waking the loop.
final class DBusWakePlan: Sendable {
    private let planned = Mutex<ContinuousClock.Instant?>(nil)

    /// On the loop thread, before sleeping: the instant to wake at (`nil`: only the socket or the
    /// eventfd wakes it). `nearest` gives the earliest deadline now registered (calls and timers).
    func plan(now: ContinuousClock.Instant, nearest: () -> ContinuousClock.Instant?) -> ContinuousClock.Instant? {
        planned.withLock { planned in
            // Computed under the lock: a sender that finds this plan registered its call before it.
            let due = nearest()
            if let current = planned, current > now, due.map({ current <= $0 }) ?? true { return current }
            planned = due
            return due
        }
    }

    /// On a sending thread, after registering a call due at `deadline`: whether the loop must be woken
    /// to plan again (its planned wake comes later, or there is none).
    func needsWake(for deadline: ContinuousClock.Instant) -> Bool {
        planned.withLock { planned in
            if let current = planned, current <= deadline { return false }
            planned = deadline
            return true
        }
    }
}
