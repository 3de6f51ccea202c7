/// An object the simulation kernel calls back when one of its timers fires.
///
/// The virtual radio's links arm a timer per connection event and per delivery; a closure per timer
/// would cost an allocation each, a target and a tag cost none.
protocol TimerTarget: AnyObject, Sendable {
    /// The timer armed with `tag` fired; called on the driver thread, in timer order.
    func timerFired(_ tag: TimerTag)
}

/// What a ``TimerTarget`` armed a timer with: 64 bits the target packs its own meaning into (a
/// link packs a ``LinkTimer``), so that the kernel's heap entries stay small and untyped.
struct TimerTag: Sendable, Hashable {
    /// The bits, as the target packed them.
    var rawValue: Int64

    /// A tag of `rawValue`.
    @inline(__always)
    init(rawValue: Int64) { self.rawValue = rawValue }
}
