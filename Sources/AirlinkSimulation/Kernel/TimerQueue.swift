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

    /// A heap entry: plain integers, so that sifting through a heap of 100,000 timers (a crowd of
    /// advertisers) moves words without reference counting; what it fires waits in ``payloads``.
    private struct Entry: Comparable {
        var deadline: VirtualInstant
        var sequence: UInt64
        /// The index of its payload in ``payloads``.
        var payload: Int
        static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.sequence == rhs.sequence }
        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.deadline != rhs.deadline ? lhs.deadline < rhs.deadline : lhs.sequence < rhs.sequence
        }
    }

    private var heap = Heap<Entry>()
    /// The payloads of the entries in the heap, by index; a fired entry's index is reused.
    private var payloads: [Payload?] = []
    private var freePayloads: [Int] = []
    private var nextSequence: UInt64 = 0
    private(set) var count = 0

    /// Arms `slot` to fire at `deadline`.
    mutating func arm(_ slot: TimerSlot, deadline: VirtualInstant) {
        insert(.slot(slot), deadline: deadline)
    }

    /// Arms a timer that is never cancelled to do `wake` at `deadline`.
    mutating func arm(_ wake: Wake, deadline: VirtualInstant) {
        insert(.wake(wake), deadline: deadline)
    }

    private mutating func insert(_ payload: Payload, deadline: VirtualInstant) {
        nextSequence &+= 1
        count += 1
        let index: Int
        if let free = freePayloads.popLast() {
            index = free
            payloads[index] = payload
        } else {
            index = payloads.count
            payloads.append(payload)
        }
        heap.insert(Entry(deadline: deadline, sequence: nextSequence, payload: index))
    }

    /// Takes the payload of an entry leaving the heap, freeing its index.
    private mutating func takePayload(_ index: Int) -> Payload {
        let payload = payloads[index].take()!
        freePayloads.append(index)
        return payload
    }

    /// Whether the entry's payload is a slot that was cancelled.
    private func isCancelled(_ entry: Entry) -> Bool {
        if case .slot(let slot) = payloads[entry.payload], slot.wake == nil { return true }
        return false
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
            if isCancelled(top) {
                heap.removeMin()
                _ = takePayload(top.payload)
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
            switch takePayload(top.payload) {
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
