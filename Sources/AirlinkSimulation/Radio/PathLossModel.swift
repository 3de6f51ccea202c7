import AirlinkCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The log-distance path-loss model that gives each received packet its RSSI.
///
/// RSSI(d) = P₁ − 10 · n · log₁₀(d / 1 m) + X, where P₁ is the peripheral's measured power at 1 m
/// (``/AirlinkCore/PeripheralSpec/measuredPower``), n the path-loss exponent (2 in free space, 2.7–3.5 indoors)
/// and X Gaussian noise with the given standard deviation, drawn from the simulation's seeded source.
/// A peripheral whose mean RSSI falls below the receiver's sensitivity is out of range.
public struct PathLossModel: Sendable, Hashable {
    /// The path-loss exponent n: 2 in free space, 2.7–3.5 indoors.
    public var exponent: Double
    /// The standard deviation of the noise, in dB.
    public var noiseStandardDeviation: Double
    /// The weakest mean signal the central still receives, in dBm.
    public var sensitivity: Double

    /// Creates a model; by default n = 2, σ = 2 dB and a sensitivity of −95 dBm.
    public init(exponent: Double = 2.0, noiseStandardDeviation: Double = 2.0, sensitivity: Double = -95) {
        self.exponent = exponent
        self.noiseStandardDeviation = noiseStandardDeviation
        self.sensitivity = sensitivity
    }

    /// The mean RSSI at `distance` metres for a peripheral whose RSSI at 1 m is `measuredPower`.
    public func meanRSSI(measuredPower: Double, distance: Double) -> Double {
        measuredPower - 10 * exponent * log10(max(distance, 0.1))
    }

    /// The distance in metres at which the mean RSSI is `meanRSSI`: the model's inverse (at least 0.1 m).
    public func distance(measuredPower: Double, meanRSSI: Double) -> Double {
        max(0.1, pow(10, (measuredPower - meanRSSI) / (10 * exponent)))
    }

    /// Whether a peripheral at `distance` is heard at all.
    public func isInRange(measuredPower: Double, distance: Double) -> Bool {
        meanRSSI(measuredPower: measuredPower, distance: distance) >= sensitivity
    }

    /// One RSSI reading, rounded to whole dBm, with noise from `random`.
    public func rssi(measuredPower: Double, distance: Double, random: any RandomSource) -> Int8 {
        rssi(mean: meanRSSI(measuredPower: measuredPower, distance: distance), random: random)
    }

    /// One RSSI reading around a mean RSSI (``meanRSSI(measuredPower:distance:)``), as
    /// ``rssi(measuredPower:distance:random:)`` takes it: for a caller that computed the mean already.
    func rssi(mean: Double, random: any RandomSource) -> Int8 {
        let noisy =
            noiseStandardDeviation > 0 ? random.gaussian(mean: mean, standardDeviation: noiseStandardDeviation) : mean
        return Int8(clamping: Int(noisy.rounded()))
    }
}
