import AirlinkCore

/// A duration as a scenario writes it: `250ms`, `2s`, `1.5s`, `3m`, `500us`, or a bare number of seconds.
public struct ScenarioDuration: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// The parsed time (`250ms` → 0.25 s), what the scenario's runner waits in virtual time.
    public var duration: Duration

    /// Wraps a duration.
    public init(_ duration: Duration) { self.duration = duration }

    /// Decodes `250ms`, `2s`, `1.5s`, `3m`, `500us` or a number of seconds, as ``/AirlinkCore/DurationText`` reads
    /// them.
    ///
    /// - Throws: `DecodingError.dataCorrupted` saying which forms are accepted, or that the value is
    ///   negative or longer than ``/AirlinkCore/DurationText/maximum``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            duration = try DurationText.parse(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Parses the text forms; `nil` if the text is not one (``/AirlinkCore/DurationText/parse(_:positive:)`` says why).
    public static func parse(_ text: String) -> Duration? {
        try? DurationText.parse(text)  // try?: `nil` is this function's answer; DurationText.parse says why
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
    /// Decodes an optional period, which must be at least ``ScenarioLimits/minimumPeriod`` when present.
    func decodePeriod(forKey key: Key) throws -> ScenarioDuration? {
        let every = try decodeIfPresent(ScenarioDuration.self, forKey: key)
        if let every, every.duration < ScenarioLimits.minimumPeriod {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "expected a period of at least \(ScenarioLimits.minimumPeriod.scenarioText), found "
                    + "\(every)")
        }
        return every
    }
}
