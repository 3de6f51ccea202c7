/// What a simulated peripheral's timer does when it fires: the next advertising event of a chain,
/// or the periodic updates due at an instant.
///
/// Packed by sign into the kernel's 64-bit ``TimerTag``, so a timer costs no allocation (a crowd of
/// advertisers arms one per advertising event): an advertising event by its chain's generation
/// (never negative), the updates by `-1 - due` in nanoseconds (always negative).
enum PeripheralTimer: Equatable {
    /// The next advertising event of the chain started as `generation`.
    case advertising(generation: Int)
    /// The periodic updates due at `due`.
    case updates(due: VirtualInstant)

    /// The timer a peripheral armed with `tag`.
    @inline(__always)
    init(_ tag: TimerTag) {
        self =
            tag.rawValue >= 0
            ? .advertising(generation: Int(tag.rawValue))
            : .updates(due: VirtualInstant(nanosecondsSinceStart: -1 - tag.rawValue))
    }

    /// The tag to arm the kernel's timer with.
    @inline(__always)
    var tag: TimerTag {
        switch self {
        case .advertising(let generation): TimerTag(rawValue: Int64(generation))
        case .updates(let due): TimerTag(rawValue: -1 - due.nanosecondsSinceStart)
        }
    }
}

extension RadioPeripheral: TimerTarget {
    /// An advertising event is due, or periodic updates are.
    func timerFired(_ tag: TimerTag) {
        world.lock.withLock {
            switch PeripheralTimer(tag) {
            case .advertising(let generation): advertisingEvent(generation)
            case .updates(let due):
                guard updateTimerAt == due else { return }
                updateTimerAt = nil
                catchUpUpdates()
            }
        }
    }

    /// Arms `timer` at `time` (the kernel calls ``timerFired(_:)`` then, under no lock).
    func arm(_ timer: PeripheralTimer, at time: VirtualInstant) {
        world.kernel.schedule(at: time, self, tag: timer.tag)
    }
}
