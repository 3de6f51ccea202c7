extension Duration {
    /// Seconds for people and traces: `2s`, `0.25s`, `1.000001s` (to the microsecond, no trailing zeros).
    package var text: String {
        let micros = nanoseconds / 1_000
        let sign = micros < 0 ? "-" : ""
        let magnitude = micros.magnitude
        var fraction = String(magnitude % 1_000_000)
        guard fraction != "0" else { return "\(sign)\(magnitude / 1_000_000)s" }
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(magnitude / 1_000_000).\(fraction)s"
    }
}
