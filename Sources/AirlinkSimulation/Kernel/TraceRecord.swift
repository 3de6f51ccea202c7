import AirlinkCore

/// One entry of a simulation's trace: when it happened and what, as data.
///
/// The trace's text (``SimulationTrace/text``) is a rendering of these records for golden files and
/// logs; captures, reports and tests read the records themselves.
public struct TraceRecord: Sendable, Hashable {
    /// The virtual time of the event.
    public var time: AirlinkInstant
    /// What happened.
    public var event: TraceEvent

    /// Creates a record.
    public init(time: AirlinkInstant, event: TraceEvent) {
        self.time = time
        self.event = event
    }
}
