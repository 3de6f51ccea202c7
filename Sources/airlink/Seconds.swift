import AirlinkCore
import Foundation

/// A time or duration in seconds as output shows it: to the microsecond, the precision the clocks
/// have, with no trailing zeros and no binary-float noise (`59.160024`, never `59.160023999999998`).
/// In JSON it is a number with those digits.
struct Seconds: Encodable, Sendable, CustomStringConvertible {
    /// The duration shown.
    var duration: Duration

    init(_ duration: Duration) { self.duration = duration }

    /// `59.160024`, `2`, `0.25` (no unit).
    var description: String { String(duration.text.dropLast()) }

    /// `59.160024s`.
    var text: String { duration.text }

    /// `[  1.617024s]`: a stream line's time in text (`observe`, `inspect --demo`), as ``text``, right-aligned in
    /// 11 columns (up to `600.000001s`, the longest a simulated run goes).
    var stamp: String { "[" + String(repeating: " ", count: max(0, 11 - text.count)) + text + "]" }

    /// A JSON number with exactly the digits of ``description`` (a `Decimal`, which the encoder writes as
    /// it is, where a `Double` would be written with 17 significant digits).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Decimal(string: description) ?? 0)
    }
}
