/// The RSSI values seen, summarised: count, extremes and quartiles, in dBm.
public struct RSSIDistribution: Sendable, Hashable {
    /// How many values.
    public var count: Int
    /// The weakest.
    public var minimum: Int
    /// The first quartile.
    public var lowerQuartile: Int
    /// The median.
    public var median: Int
    /// The third quartile.
    public var upperQuartile: Int
    /// The strongest.
    public var maximum: Int

    /// Creates a distribution from its figures.
    public init(count: Int, minimum: Int, lowerQuartile: Int, median: Int, upperQuartile: Int, maximum: Int) {
        self.count = count
        self.minimum = minimum
        self.lowerQuartile = lowerQuartile
        self.median = median
        self.upperQuartile = upperQuartile
        self.maximum = maximum
    }

    /// Summarises values; `nil` for none.
    public init?(_ values: [Int]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func at(_ fraction: Double) -> Int { sorted[Int(Double(sorted.count - 1) * fraction)] }
        self.init(
            count: sorted.count, minimum: sorted[0], lowerQuartile: at(0.25), median: at(0.5),
            upperQuartile: at(0.75), maximum: sorted[sorted.count - 1])
    }
}
