/// A source of random numbers shared by the layers of one ``AirlinkEnvironment``.
///
/// In simulation it is seeded, so a seed reproduces every draw; on hardware it is the system's
/// generator. Layers draw jitter and back-off from it, never from `Int.random(in:)` directly.
public protocol RandomSource: AnyObject, Sendable {
    /// The next 64 random bits.
    func next() -> UInt64
}

extension RandomSource {
    /// A uniformly distributed integer in `range`, without modulo bias (Lemire's method).
    public func uniform(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) &+ 1
        if span == 0 { return Int(truncatingIfNeeded: next()) }  // the full 64-bit range
        var product = next().multipliedFullWidth(by: span)
        if product.low < span {
            let threshold = (0 &- span) % span
            while product.low < threshold { product = next().multipliedFullWidth(by: span) }
        }
        return range.lowerBound + Int(product.high)
    }

    /// A uniformly distributed `Double` in `0 ..< 1`, with 53 random bits.
    public func unitInterval() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A uniformly distributed duration in `range`, to the nanosecond.
    public func duration(in range: ClosedRange<Duration>) -> Duration {
        let low = range.lowerBound.nanoseconds
        let high = range.upperBound.nanoseconds
        guard high > low else { return range.lowerBound }
        let offset = uniform(in: 0...Int(clamping: high - low))
        return .nanoseconds(low + Int64(offset))
    }

    /// A normally distributed value with the given mean and standard deviation (Box–Muller).
    public func gaussian(mean: Double = 0, standardDeviation: Double = 1) -> Double {
        let u1 = max(unitInterval(), 0x1.0p-53)
        let u2 = unitInterval()
        let radius = (-2 * _log(u1)).squareRoot()
        return mean + standardDeviation * radius * _cos(2 * Double.pi * u2)
    }
}

extension Duration {
    /// The duration as a whole number of nanoseconds, saturating at `Int64`'s range.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled &+ attoseconds / 1_000_000_000
    }
}
