/// An object the simulation kernel calls back when one of its timers fires.
///
/// The virtual radio's links arm a timer per connection event and per delivery; a closure per timer
/// would cost an allocation each, a target and a tag cost none.
protocol TimerTarget: AnyObject, Sendable {
    /// The timer armed with `tag` fired; called on the driver thread, in timer order.
    func timerFired(_ tag: Int64)
}
