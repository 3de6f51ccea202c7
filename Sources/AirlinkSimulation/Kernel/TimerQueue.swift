import HeapModule

/// The simulation's pending timers, ordered by (deadline, sequence).
///
/// Two timers due at the same instant fire in the order they were armed, so the order of events
/// within one instant is fixed by the program, never by a hash or a thread.
struct TimerQueue {
    private struct Entry: Comparable {
        var deadline: AirlinkInstantValue
        var sequence: UInt64
        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.sequence) < (rhs.deadline, rhs.sequence)
        }
    }

    private var heap = Heap<Entry>()
    private var continuations: [UInt64: Wake] = [:]
    private var cancelledBeforeArming: Set<UInt64> = []
    private var nextSequence: UInt64 = 0

    /// The number of armed timers.
    var count: Int { continuations.count }

    /// A fresh sequence number for a timer about to be armed.
    mutating func reserveSequence() -> UInt64 {
        nextSequence += 1
        return nextSequence
    }

    /// Arms a timer; returns `false` if it was cancelled before it could be armed.
    mutating func arm(
        _ sequence: UInt64, deadline: AirlinkInstantValue, wake: Wake
    ) -> Bool {
        if cancelledBeforeArming.remove(sequence) != nil { return false }
        continuations[sequence] = wake
        heap.insert(Entry(deadline: deadline, sequence: sequence))
        return true
    }

    /// Removes a timer that was cancelled; returns its continuation if it was armed.
    mutating func cancel(_ sequence: UInt64) -> Wake? {
        if let continuation = continuations.removeValue(forKey: sequence) { return continuation }
        cancelledBeforeArming.insert(sequence)
        return nil
    }

    /// The deadline of the earliest live timer, dropping cancelled ones from the top.
    mutating func nextDeadline() -> AirlinkInstantValue? {
        while let top = heap.min {
            if continuations[top.sequence] != nil { return top.deadline }
            heap.removeMin()
        }
        return nil
    }

    /// Removes the earliest live timer due at or before `instant` and returns its continuation.
    mutating func popDue(atOrBefore instant: AirlinkInstantValue) -> Wake? {
        while let top = heap.min, top.deadline <= instant {
            heap.removeMin()
            if let continuation = continuations.removeValue(forKey: top.sequence) { return continuation }
        }
        return nil
    }
}

/// What a timer does when it fires: resume a sleeping task, or run a job scheduled for later.
enum Wake {
    /// Resume a task suspended in `AirlinkClock.sleep`.
    case continuation(UnsafeContinuation<Void, any Error>)
    /// Run a job that was scheduled with a delay.
    case job(UnownedJob)
    /// Call a synchronous action on the driver thread (the virtual radio's events), without a task.
    case action(@Sendable () -> Void)
}

/// Virtual time as a plain integer of nanoseconds: cheap to compare in the timer heap.
typealias AirlinkInstantValue = Int64
