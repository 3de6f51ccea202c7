import AirlinkCore

/// Gives ``RecordTimestamp``s from an environment's clock, so that recording a connection reads no
/// wall clock.
///
/// An `AirlinkClock` counts from its origin (a simulation's start, or the moment a live environment
/// was created). A record clock pins that origin to a ``RecordTimestamp``, its `epoch`:
///
/// ```swift
/// // In simulation: the same timestamps on every run.
/// let simulated = RecordClock(sim.clock, epoch: RecordTimestamp(secondsSince1970: 1_767_225_600))
/// // On hardware: the origin is about now.
/// let clock = RecordClock(environment.clock, epoch: RecordTimestamp(Date()))
/// try await registry.recordConnection(device: id, name: "Thermostat", at: clock.now)
/// ```
public struct RecordClock: Sendable {
    /// The clock whose instants are mapped.
    public let clock: AirlinkClock
    /// The timestamp of the clock's origin, `AirlinkInstant.zero`.
    public let epoch: RecordTimestamp

    /// Creates a record clock.
    ///
    /// - Parameters:
    ///   - clock: the environment's clock.
    ///   - epoch: the timestamp that the clock's origin stands for.
    public init(_ clock: AirlinkClock, epoch: RecordTimestamp) {
        self.clock = clock
        self.epoch = epoch
    }

    /// The timestamp of `instant`: the epoch advanced by the instant's offset from the origin.
    ///
    /// - Parameter instant: an instant of ``clock``.
    public func timestamp(of instant: AirlinkInstant) -> RecordTimestamp { epoch.advanced(by: instant.offset) }

    /// The timestamp of the clock's current instant.
    public var now: RecordTimestamp { timestamp(of: clock.now) }
}
