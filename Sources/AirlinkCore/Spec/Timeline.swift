/// A peripheral's script: actions at fixed virtual times after it was added to a simulation.
///
/// ```swift
/// Timeline {
///     At(.seconds(30), .setValue(BatteryLevel(5), of: .batteryLevel))
///     At(.seconds(60), .reset)
///     At(.seconds(90)) { context in context.log("firmware 2.0") }
/// }
/// ```
public struct Timeline: Sendable {
    /// The entries, in the order declared (a simulation runs them in time order, ties in this order).
    public var entries: [At]

    /// Declares a timeline.
    public init(@TimelineBuilder _ entries: () -> [At]) { self.entries = entries() }
}

/// One entry of a ``Timeline``: an action at a virtual time.
public struct At: Sendable {
    /// The time after the peripheral was added.
    public var time: Duration
    /// What happens then.
    public var action: TimelineAction

    /// An action at `time`.
    public init(_ time: Duration, _ action: TimelineAction) {
        self.time = time
        self.action = action
    }

    /// A closure run at `time` with the peripheral's context.
    public init(_ time: Duration, _ body: @escaping @Sendable (any PeripheralContext) -> Void) {
        self.init(time, .run(body))
    }
}
