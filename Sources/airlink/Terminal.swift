import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the CLI does differently on a terminal: colour and progress lines are for people watching; a
/// pipe, a file or a log gets plain text.
enum Terminal {
    /// Whether output to `descriptor` may be coloured: it is a terminal, `NO_COLOR` is unset or empty
    /// (https://no-color.org), and `TERM` is not `dumb`.
    static func colours(
        _ descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        guard isatty(descriptor) == 1 else { return false }
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// Writes `Error: message` to standard error, `Error:` in bold red where ``colours(_:environment:)``
    /// allows; the message's control characters are escaped.
    static func reportError(_ message: String) {
        let prefix = colours(2) ? "\u{1B}[1;31mError:\u{1B}[0m " : "Error: "
        let text = prefix + message.escapingControlCharacters(keepingNewlines: true) + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
