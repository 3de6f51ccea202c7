import AirlinkCore

/// The LE physical layer a link uses (Core Spec Vol 6, Part A, 3.2 and Part B, 2.1).
public enum PHY: Sendable, Hashable, CustomStringConvertible {
    /// LE 1M: 1 Mbit/s, a 1-byte preamble.
    case le1M
    /// LE 2M: 2 Mbit/s, a 2-byte preamble.
    case le2M

    /// The air time of one byte: 8 µs at 1 Mbit/s, 4 µs at 2 Mbit/s.
    var byteTime: VirtualDuration { .nanoseconds(self == .le1M ? 8_000 : 4_000) }
    /// Preamble bytes.
    var preambleBytes: Int { self == .le1M ? 1 : 2 }

    /// `1M` or `2M`.
    public var description: String { self == .le1M ? "1M" : "2M" }
}
