import AirlinkCore
import ArgumentParser

/// The duration flags (`--timeout 5s`, `--connect-timeout 500ms`, `--duration 2m`), read by
/// ``/AirlinkCore/DurationText`` with the flag's name and limit in each message.
///
/// The flags are declared with `parsing: .unconditional`, so that `--connect-timeout -5s` reaches
/// this check (and is told it must be positive) instead of being taken for a flag.
enum DurationArgument {
    /// The longest a duration flag may be on `sim`. Virtual time passes at once, but every virtual
    /// second costs work (the built-in world advertises and notifies), so a longer run would look like
    /// a hang; ``/AirlinkCore/DurationText/maximum`` bounds the other transports.
    static let simulatedMaximum = Duration.seconds(600)

    /// Parses a positive duration given to `flag` (or zero where `zero` allows it), at most `maximum`.
    ///
    /// - Throws: `ValidationError` naming the flag, what was wrong and what to write.
    static func parse(_ text: String, flag: String, maximum: Duration = DurationText.maximum, zero: Bool = false)
        throws(ValidationError) -> Duration
    {
        let duration: Duration
        do { duration = try DurationText.parse(text, positive: !zero) } catch {
            throw ValidationError("\(flag) \(error.message)")
        }
        guard duration <= maximum else {
            throw ValidationError(
                "\(flag) \"\(text)\" is longer than \(seconds(maximum)), the most it accepts on "
                    + "--transport sim (virtual time costs work): write at most \(seconds(maximum))")
        }
        return duration
    }

    /// The most a duration flag accepts on the transport the options choose.
    static func maximum(on global: GlobalOptions) -> Duration {
        // try?: a bad --transport is refused by its own validation; here it only picks the limit.
        if case .bluez = try? global.specifier() { return DurationText.maximum }
        return simulatedMaximum
    }
}
