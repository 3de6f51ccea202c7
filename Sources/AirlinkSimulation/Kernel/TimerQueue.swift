import HeapModule

/// The simulation's pending timers, ordered by (deadline, sequence).
///
/// Two timers due at the same instant fire in the order they were armed, so the order of events
/// within one instant is fixed by the program, never by a hash or a thread. A timer that can be
/// cancelled (a sleep) is a ``TimerSlot`` shared with the sleeper's cancellation handler, so
/// cancelling needs no lookup; one that cannot (a delayed job, a radio action) sits in the heap as
/// it is, without an object of its own. Only the kernel touches a queue, under its lock.
struct TimerQueue {
    /// What an entry of the heap fires.
    private enum Payload {
        /// A cancellable timer: fires the slot's wake, if it is still armed.
        case slot(TimerSlot)
        /// A timer nobody cancels.
        case wake(Wake)
    }

    private struct Entry: Comparable {
        var deadline: VirtualInstant
        var sequence: UInt64
        var payload: Payload
        static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.sequence == rhs.sequence }
        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.deadline != rhs.deadline ? lhs.deadline < rhs.deadline : lhs.sequence < rhs.sequence
        }
    }

    private var heap = Heap<Entry>()
    private var nextSequence: UInt64 = 0
    private(set) var count = 0

    /// Arms `slot` to fire at `deadline`.
    mutating func arm(_ slot: TimerSlot, deadline: VirtualInstant) {
        nextSequence &+= 1
        count += 1
        heap.insert(Entry(deadline: deadline, sequence: nextSequence, payload: .slot(slot)))
    }

    /// Arms a timer that is never cancelled to do `wake` at `deadline`.
    mutating func arm(_ wake: Wake, deadline: VirtualInstant) {
        nextSequence &+= 1
        count += 1
        heap.insert(Entry(deadline: deadline, sequence: nextSequence, payload: .wake(wake)))
    }

    /// Takes what a cancelled slot would have done, if it is still armed; the entry is dropped lazily.
    mutating func cancel(_ slot: TimerSlot) -> Wake? {
        guard let wake = slot.wake else {
            slot.cancelledBeforeArming = true
            return nil
        }
        slot.wake = nil
        count -= 1
        return wake
    }

    /// The deadline of the earliest live timer, dropping cancelled ones from the top.
    mutating func nextDeadline() -> VirtualInstant? {
        while let top = heap.min {
            if case .slot(let slot) = top.payload, slot.wake == nil {
                heap.removeMin()
                continue
            }
            return top.deadline
        }
        return nil
    }

    /// Removes the earliest live timer due at or before `instant` and returns what it does.
    mutating func popDue(atOrBefore instant: VirtualInstant) -> Wake? {
        while let top = heap.min, top.deadline <= instant {
            heap.removeMin()
            switch top.payload {
            case .wake(let wake):
                count -= 1
                return wake
            case .slot(let slot):
                guard let wake = slot.wake else { continue }
                slot.wake = nil
                count -= 1
                return wake
            }
        }
        return nil
    }
}

/// One timer: what it does when it fires, until it fires or is cancelled.
///
/// Mutated only under the kernel's lock.
final class TimerSlot: @unchecked Sendable {
    // @unchecked: every access happens under SimulationKernel's mutex.
    var wake: Wake?
    var cancelledBeforeArming = false

    init() {}
}

/// What a timer does when it fires: resume a sleeping task, or run a job scheduled for later.
enum Wake {
    /// Resume a task suspended in `AirlinkClock.sleep`.
    case continuation(UnsafeContinuation<Void, any Error>)
    /// Run a job that was scheduled with a delay.
    case job(UnownedJob)
    /// Call a synchronous action on the driver thread (the virtual radio's events), without a task.
    case action(@Sendable () -> Void)
    /// Call a target on the driver thread with a tag: an action without a closure allocated per timer.
    case target(any TimerTarget, TimerTag)
}
