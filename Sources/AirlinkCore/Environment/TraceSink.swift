/// Where layers record what happened, one line per event.
///
/// A `Simulation`'s trace stamps each line with virtual time and keeps it as a record (a plain
/// category and text; the virtual radio adds typed records of its link-layer facts), so a seed's run
/// can be compared byte for byte with a golden file and read as data by captures and tests. On
/// hardware the default sink discards lines (the `Logger` carries what a person reads).
public protocol TraceSink: Sendable {
    /// Records one event: a short category (`radio`, `att`, `connection`) and a one-line text.
    ///
    /// The text must not contain wall-clock times, memory addresses or anything else that differs
    /// between runs of the same seed.
    func record(_ category: String, _ text: @autoclosure () -> String)
}

/// A ``TraceSink`` that keeps nothing.
public struct DiscardingTraceSink: TraceSink {
    /// Creates the sink.
    public init() {}

    /// Discards the line without evaluating it.
    public func record(_ category: String, _ text: @autoclosure () -> String) {}
}
