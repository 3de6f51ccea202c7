/// Durations as people write them, on the command line and in scenario files: `500us`, `250ms`,
/// `2s`, `1.5m`, `3min`, `1h`, or a bare number of seconds.
///
/// One parser for every place that reads a duration, so that each refuses the same bad text the same
/// way: a negative, non-finite or overlong value is a typed ``AirlinkError/Code/invalidArgument``
/// naming the text, never an arithmetic trap.
public enum DurationText {
    /// The longest duration any text may name: 366 days (8784 h). Longer values would overflow the
    /// nanosecond count or stand for work that never ends; commands and scenarios set tighter limits.
    public static let maximum = Duration.seconds(366 * 86_400)

    /// What to write, for messages.
    public static let forms = "a number and a unit, such as 500us, 250ms, 2s, 1.5m or 1h (a bare number is seconds)"

    /// The units, longest suffix first where one ends another (`ms` before `s`), with their size in seconds.
    private static let units: [(suffix: String, seconds: Double)] = [
        ("ns", 1e-9), ("us", 1e-6), ("µs", 1e-6), ("μs", 1e-6), ("ms", 1e-3), ("min", 60), ("s", 1), ("m", 60),
        ("h", 3_600),
    ]

    /// Parses a duration of zero or more.
    ///
    /// - Parameters:
    ///   - text: the text; surrounding spaces are ignored.
    ///   - positive: whether zero is refused too (a timeout, a period).
    /// - Throws: ``AirlinkError/Code/invalidArgument`` saying whether the text is not a duration, is
    ///   negative (or zero when `positive`), or is longer than ``maximum``.
    public static func parse(_ text: String, positive: Bool = false) throws(AirlinkError) -> Duration {
        let trimmed = trimmed(text)
        var number = Substring(trimmed)
        var scale = 1.0
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            number = trimmed.dropLast(unit.suffix.count)
            scale = unit.seconds
            break
        }
        guard let value = Double(Self.trimmed(String(number))), value.isFinite else {
            throw AirlinkError(.invalidArgument, "\"\(text)\" is not a duration: write \(forms)")
        }
        guard value >= 0 else {
            throw AirlinkError(
                .invalidArgument,
                "\"\(text)\" is negative: write a \(positive ? "positive duration" : "duration of zero or more"), "
                    + "such as 2s")
        }
        let seconds = value * scale
        guard seconds <= Double(maximum.components.seconds) else {
            throw AirlinkError(
                .invalidArgument, "\"\(text)\" is longer than the longest duration accepted, 366 days (8784h)")
        }
        let duration = Duration.nanoseconds(Int64((seconds * 1e9).rounded()))
        if positive, duration <= .zero {
            throw AirlinkError(.invalidArgument, "\"\(text)\" must be positive: write a duration such as 500ms or 2s")
        }
        return duration
    }

    private static func trimmed(_ text: String) -> String {
        var result = Substring(text)
        while let first = result.first, first.isWhitespace { result = result.dropFirst() }
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return String(result)
    }
}
