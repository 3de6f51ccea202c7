import Airlink
import AirlinkCore
import ArgumentParser

/// A reconnection strategy typed on the command line: `none`, `linear:2s,3` (wait, attempts; an
/// optional per-attempt timeout `linear:2s,3,3s`), `exponential:1s,30s,5` (base, cap, attempts;
/// optional per-attempt timeout; full jitter drawn from the environment's seeded source).
enum ReconnectArgument {
    /// What to type, for messages.
    static let forms =
        "none, linear:WAIT,ATTEMPTS[,TIMEOUT] (linear:2s,3) or exponential:BASE,CAP,ATTEMPTS[,TIMEOUT] "
        + "(exponential:1s,30s,5)"

    /// The per-attempt connect timeout when none is written.
    static let defaultAttemptTimeout = Duration.seconds(5)

    /// Parses the text, throwing a message that says what to type.
    /// The most attempts a strategy may make: each waits and times out, so more would not end.
    static let maximumAttempts = 1_000

    /// Parses the text, each duration at most `maximum`, throwing a message that says what to type.
    static func parse(_ text: String, maximum: Duration = DurationText.maximum) throws(ValidationError)
        -> any ReconnectionStrategy
    {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let kind = parts.first?.lowercased() ?? ""
        let arguments =
            parts.count == 2 ? parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init) : []
        func duration(_ index: Int, _ what: String) throws(ValidationError) -> Duration {
            do {
                return try DurationArgument.parse(
                    arguments[index], flag: "--reconnect \(text): \(what)", maximum: maximum)
            } catch {
                throw ValidationError(error.message + "; write \(forms)")
            }
        }
        func count(_ index: Int) throws(ValidationError) -> Int {
            guard let value = Int(arguments[index]), value > 0, value <= maximumAttempts else {
                throw ValidationError(
                    "--reconnect \(text): the attempts \"\(arguments[index])\" must be a whole number from 1 to "
                        + "\(maximumAttempts); write \(forms)")
            }
            return value
        }
        switch kind {
        case "none" where parts.count == 1:
            return NoReconnectionStrategy()
        case "linear" where arguments.count == 2 || arguments.count == 3:
            let timeout = arguments.count == 3 ? try duration(2, "the timeout") : defaultAttemptTimeout
            return LinearReconnectionStrategy(
                wait: try duration(0, "the wait"), attempts: try count(1), timeout: timeout)
        case "exponential" where arguments.count == 3 || arguments.count == 4:
            let base = try duration(0, "the base")
            let cap = try duration(1, "the cap")
            guard cap >= base else {
                throw ValidationError("--reconnect \(text): the cap must be at least the base; write \(forms)")
            }
            let timeout = arguments.count == 4 ? try duration(3, "the timeout") : defaultAttemptTimeout
            return ExponentialBackoffReconnectionStrategy(
                initialDelay: base, maximumDelay: cap, attempts: try count(2), timeout: timeout, jitter: .full)
        default:
            throw ValidationError("--reconnect \"\(text)\" is not a reconnection strategy; write \(forms)")
        }
    }
}
