import AirlinkCore

/// A duration as a scenario writes it: `250ms`, `2s`, `1.5s`, `3m`, `500us`, or a bare number of seconds.
public struct ScenarioDuration: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// The duration.
    public var duration: Duration

    /// Wraps a duration.
    public init(_ duration: Duration) { self.duration = duration }

    /// Decodes `250ms`, `2s`, `1.5s`, `3m`, `500us` or a number of seconds.
    ///
    /// - Throws: `DecodingError.dataCorrupted` saying which forms are accepted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let duration = Self.parse(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a duration such as 250ms, 2s, 1.5s, 3m or 500us, found '\(text)'")
        }
        self.duration = duration
    }

    /// Parses the text forms; `nil` if the text is not one.
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingWhitespace
        let units: [(String, Double)] = [
            ("ms", 1e-3), ("us", 1e-6), ("µs", 1e-6), ("min", 60), ("s", 1), ("m", 60), ("h", 3600),
        ]
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            guard let number = Double(trimmed.dropLast(suffix.count)), number >= 0, number.isFinite else { return nil }
            return .nanoseconds(Int64((number * scale * 1e9).rounded()))
        }
        guard let seconds = Double(trimmed), seconds >= 0, seconds.isFinite else { return nil }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// `2s`, `250ms`, `1.5s`.
    public var description: String { duration.scenarioText }
}

extension Duration {
    /// The shortest scenario text for the duration: `2s`, `250ms`, `1.234567s`.
    var scenarioText: String {
        let nanoseconds = Int64(components.seconds) * 1_000_000_000 + components.attoseconds / 1_000_000_000
        if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000)s" }
        if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
        return "\(Double(nanoseconds) / 1e9)s"
    }

    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}

extension KeyedDecodingContainer {
    /// Decodes an optional period, which must be positive when present.
    func decodePeriod(forKey key: Key) throws -> ScenarioDuration? {
        let every = try decodeIfPresent(ScenarioDuration.self, forKey: key)
        if let every, every.duration <= .zero {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "expected a positive period, found \(every)")
        }
        return every
    }
}
