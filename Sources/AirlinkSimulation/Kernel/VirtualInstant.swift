import AirlinkCore

/// A point on the simulation's virtual clock: nanoseconds since the simulation started.
///
/// The timer heap and the radio's link model compare and add instants millions of times a second,
/// so an instant is one 64-bit count (an ``/AirlinkCore/AirlinkInstant`` holds a 128-bit `Duration`);
/// in a release build it costs what a bare `Int64` costs, and the type keeps instants and spans apart.
struct VirtualInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since the simulation started.
    var nanosecondsSinceStart: Int64

    /// The instant `nanoseconds` after the simulation started.
    @inline(__always)
    init(nanosecondsSinceStart nanoseconds: Int64) { self.nanosecondsSinceStart = nanoseconds }

    /// The same instant as the environment's clock reads it.
    @inline(__always)
    init(_ instant: AirlinkInstant) { nanosecondsSinceStart = instant.offset.nanoseconds }

    /// The simulation's start.
    static let start = VirtualInstant(nanosecondsSinceStart: 0)

    /// The same instant as the environment's clock reads it.
    var airlinkInstant: AirlinkInstant { AirlinkInstant(offset: .nanoseconds(nanosecondsSinceStart)) }

    @inline(__always)
    static func < (lhs: VirtualInstant, rhs: VirtualInstant) -> Bool {
        lhs.nanosecondsSinceStart < rhs.nanosecondsSinceStart
    }

    /// The instant `duration` later.
    @inline(__always)
    static func + (instant: VirtualInstant, duration: VirtualDuration) -> VirtualInstant {
        VirtualInstant(nanosecondsSinceStart: instant.nanosecondsSinceStart + duration.nanoseconds)
    }

    /// Moves `instant` `duration` later.
    @inline(__always)
    static func += (instant: inout VirtualInstant, duration: VirtualDuration) {
        instant.nanosecondsSinceStart += duration.nanoseconds
    }

    /// The time from `earlier` to `later` (negative if `later` lies before `earlier`).
    @inline(__always)
    static func - (later: VirtualInstant, earlier: VirtualInstant) -> VirtualDuration {
        VirtualDuration(nanoseconds: later.nanosecondsSinceStart - earlier.nanosecondsSinceStart)
    }
}
