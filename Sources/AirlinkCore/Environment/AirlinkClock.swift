/// A point in an ``AirlinkClock``'s time: the duration since the clock's origin.
///
/// In simulation the origin is the simulation's start, so traces print `t=2.500000` rather than
/// a wall-clock time; on hardware it is the moment the environment was created.
public struct AirlinkInstant: InstantProtocol, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The time since the clock's origin.
    public var offset: Duration

    /// Creates an instant at `offset` after the clock's origin.
    public init(offset: Duration) { self.offset = offset }

    /// The clock's origin.
    public static let zero = AirlinkInstant(offset: .zero)

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> AirlinkInstant { AirlinkInstant(offset: offset + duration) }

    /// The duration from this instant to `other`.
    public func duration(to other: AirlinkInstant) -> Duration { other.offset - offset }

    /// Orders instants in time.
    public static func < (lhs: AirlinkInstant, rhs: AirlinkInstant) -> Bool { lhs.offset < rhs.offset }

    /// Seconds with six decimals, `12.345678`: the form traces print.
    public var description: String {
        // Every trace line starts with this: digits go into a stack buffer, and the result (up to 15
        // bytes, that is below 1 000 000 000 s) is a small string without a heap allocation.
        let micros = offset.nanoseconds / 1_000
        var magnitude = micros.magnitude
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var index = buffer.count
            func put(_ byte: UInt8) {
                index -= 1
                buffer[index] = byte
            }
            for _ in 0..<6 {
                put(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            }
            put(UInt8(ascii: "."))
            repeat {
                put(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            if micros < 0 { put(UInt8(ascii: "-")) }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[index...]), as: UTF8.self)
        }
    }
}

/// What an ``AirlinkClock`` delegates to: a virtual clock in simulation, the system's on hardware.
public protocol ClockBackend: Sendable {
    /// Now, as an offset from the backend's origin: virtual time since the simulation began, or real
    /// time since the system backend was created.
    var now: AirlinkInstant { get }
    /// Suspends until `deadline`; throws `CancellationError` if the task is cancelled first.
    func sleep(until deadline: AirlinkInstant) async throws
}

/// The clock every Airlink layer takes its time from.
///
/// A `Clock`, so it works with Swift's clock APIs, whose behaviour comes from its ``ClockBackend``:
/// in a `Simulation` it reads and advances virtual time (a minute-long back-off passes in
/// microseconds); on hardware it follows `ContinuousClock`. Layers never read the wall clock.
public struct AirlinkClock: Clock, Sendable {
    /// Where time comes from: the simulation's virtual clock, or `ContinuousClock` on hardware.
    public let backend: any ClockBackend

    /// Creates a clock on a backend.
    public init(backend: any ClockBackend) { self.backend = backend }

    /// Now, as the ``backend`` tells it: virtual time in a simulation, real time on hardware.
    public var now: AirlinkInstant { backend.now }

    /// The smallest step this clock distinguishes: one microsecond, as traces print.
    public var minimumResolution: Duration { .microseconds(1) }

    /// Suspends until `deadline`.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    public func sleep(until deadline: AirlinkInstant, tolerance: Duration? = nil) async throws {
        try await backend.sleep(until: deadline)
    }

    /// Suspends for `duration`.
    public func sleep(for duration: Duration) async throws {
        try await backend.sleep(until: now.advanced(by: duration))
    }
}
