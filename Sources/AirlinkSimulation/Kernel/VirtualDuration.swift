/// A span of virtual time in nanoseconds: what the link model adds to a ``VirtualInstant``.
///
/// One 64-bit count, as cheap as a bare `Int64` in a release build (a `Duration` is 128 bits);
/// ``init(_:)`` and ``duration`` convert at the edges, where specs and traces use `Duration`.
struct VirtualDuration: Comparable, Hashable, Sendable, AdditiveArithmetic {
    /// The span in nanoseconds.
    var nanoseconds: Int64

    /// A span of `nanoseconds`.
    @inline(__always)
    init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The same span as `duration`, to the nanosecond.
    @inline(__always)
    init(_ duration: Duration) { nanoseconds = duration.nanoseconds }

    /// A span of `nanoseconds`.
    @inline(__always)
    static func nanoseconds(_ nanoseconds: Int64) -> VirtualDuration { VirtualDuration(nanoseconds: nanoseconds) }

    /// A span of `microseconds`.
    @inline(__always)
    static func microseconds(_ microseconds: Int64) -> VirtualDuration {
        VirtualDuration(nanoseconds: microseconds * 1_000)
    }

    /// A span of `milliseconds`.
    @inline(__always)
    static func milliseconds(_ milliseconds: Int64) -> VirtualDuration {
        VirtualDuration(nanoseconds: milliseconds * 1_000_000)
    }

    /// A span of `seconds`.
    @inline(__always)
    static func seconds(_ seconds: Int64) -> VirtualDuration { VirtualDuration(nanoseconds: seconds * 1_000_000_000) }

    /// No time at all.
    static let zero = VirtualDuration(nanoseconds: 0)

    /// The same span as a `Duration`.
    var duration: Duration { .nanoseconds(nanoseconds) }

    @inline(__always)
    static func < (lhs: VirtualDuration, rhs: VirtualDuration) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    @inline(__always)
    static func + (lhs: VirtualDuration, rhs: VirtualDuration) -> VirtualDuration {
        VirtualDuration(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }

    @inline(__always)
    static func - (lhs: VirtualDuration, rhs: VirtualDuration) -> VirtualDuration {
        VirtualDuration(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }

    /// `count` spans end to end.
    @inline(__always)
    static func * (span: VirtualDuration, count: Int64) -> VirtualDuration {
        VirtualDuration(nanoseconds: span.nanoseconds * count)
    }

    /// `count` spans end to end.
    @inline(__always)
    static func * (count: Int64, span: VirtualDuration) -> VirtualDuration { span * count }

    /// How many whole `divisor` spans fit in `span` (rounded toward zero).
    @inline(__always)
    static func / (span: VirtualDuration, divisor: VirtualDuration) -> Int64 { span.nanoseconds / divisor.nanoseconds }
}
