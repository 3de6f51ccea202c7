/// Where layers record what happened, one record per event.
///
/// A `Simulation`'s trace stamps each record with virtual time and keeps it as data (the layers'
/// ``LayerTraceEvent``s typed, free-form lines as a category and a text; the virtual radio adds
/// typed records of its link-layer facts), so a seed's run can be compared byte for byte with a
/// golden file through its rendering and read as data by captures, oracles and tests. On hardware
/// the default sink discards records (the `Logger` carries what a person reads).
public protocol TraceSink: Sendable {
    /// Records one typed event of the layers; its line is ``LayerTraceEvent/text`` under
    /// ``LayerTraceEvent/category``.
    func record(_ event: @autoclosure () -> LayerTraceEvent)

    /// Records one free-form line: a short category (`client`, `scenario`, `observer`) and a
    /// one-line text. Facts a test or an oracle would match on have a typed record instead.
    ///
    /// The text must not contain wall-clock times, memory addresses or anything else that differs
    /// between runs of the same seed.
    func record(_ category: String, _ text: @autoclosure () -> String)
}

/// A ``TraceSink`` that keeps nothing.
public struct DiscardingTraceSink: TraceSink {
    /// Creates the sink.
    public init() {}

    /// Discards the event without building it.
    public func record(_ event: @autoclosure () -> LayerTraceEvent) {}

    /// Discards the line without evaluating it.
    public func record(_ category: String, _ text: @autoclosure () -> String) {}
}
