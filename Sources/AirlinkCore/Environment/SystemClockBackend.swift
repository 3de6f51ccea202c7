/// The ``ClockBackend`` for hardware: `ContinuousClock`, measured from the backend's creation.
public struct SystemClockBackend: ClockBackend {
    // Hardware time: reading the real clock is this type's purpose; simulations never use it.
    private let origin = ContinuousClock.now

    /// Creates a backend whose origin is now.
    public init() {}

    /// The time since the backend was created.
    public var now: AirlinkInstant { AirlinkInstant(offset: origin.duration(to: ContinuousClock.now)) }

    /// Sleeps on `ContinuousClock` until `deadline`.
    public func sleep(until deadline: AirlinkInstant) async throws {
        try await ContinuousClock().sleep(until: origin.advanced(by: deadline.offset), tolerance: nil)
    }
}
