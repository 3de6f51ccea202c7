/// Smooth, seeded noise that is a pure function of time: the same seed and time give the same value,
/// whatever was asked before.
///
/// Value noise: at every `spacing` seconds (a knot) a standard normal value is drawn by hashing the seed,
/// the channel and the knot's index (SplitMix64's finaliser, then Box–Muller); between knots the values
/// are blended with smoothstep, `3u² - 2u³`, so the noise is continuous with a continuous slope. Its
/// standard deviation is at most 1 (exactly 1 at the knots, a little less between them).
struct SensorTagNoise: Hashable, Sendable {
    /// The seed all channels derive from.
    let seed: UInt64

    /// The noise of `channel` at `seconds`, standard deviation about 1, knots `spacing` seconds apart.
    func value(_ channel: UInt64, at seconds: Double, spacing: Double) -> Double {
        let position = seconds / spacing
        let knot = position.rounded(.down)
        let u = position - knot
        let blend = u * u * (3 - 2 * u)
        let index = Int64(max(-9.0e18, min(9.0e18, knot)))
        let left = normal(channel, index)
        let right = normal(channel, index &+ 1)
        return left + (right - left) * blend
    }

    /// The standard normal value at a knot.
    func normal(_ channel: UInt64, _ index: Int64) -> Double {
        let key = Self.mix(seed ^ Self.mix(channel &* 0x9E37_79B9_7F4A_7C15 ^ Self.mix(UInt64(bitPattern: index))))
        let u1 = max(Double(key >> 11) * 0x1.0p-53, 0x1.0p-53)
        let u2 = Double(Self.mix(key) >> 11) * 0x1.0p-53
        return (-2 * SensorTagMath.logarithm(u1)).squareRoot() * SensorTagMath.cosine(2 * Double.pi * u2)
    }

    /// SplitMix64's finaliser: a bijective scramble of 64 bits.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
