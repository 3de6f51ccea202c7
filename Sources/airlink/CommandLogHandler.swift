import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the layers' log reaches the terminal: one voice with the command's own output.
///
/// Without `--verbose` only warnings and errors are written, as `warning: message`, and not the
/// layers' connection events (a failed connection, a lost link: records carrying a `device`): the
/// command reports those itself as its `Error:` line, and saying it twice reads as two problems. With
/// `--verbose` every record is written with its level, metadata and source, as a log.
struct CommandLogHandler: LogHandler {
    /// Whether to write everything (`--verbose`).
    let verbose: Bool
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    /// A handler for `--verbose` (everything) or the default (warnings that are not connection events).
    init(verbose: Bool) {
        self.verbose = verbose
        logLevel = verbose ? .debug : .warning
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let (level, message, source) = (event.level, event.message, event.source)
        let all = self.metadata.merging(event.metadata ?? [:]) { $1 }
        guard verbose || level >= .error || all["device"] == nil else { return }
        var text = "\(level): \(message)"
        if verbose {
            let pairs = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            text = "\(level) [\(source)]" + (pairs.isEmpty ? "" : " " + pairs.joined(separator: " ")) + ": \(message)"
        }
        let line = text.escapingControlCharacters(keepingNewlines: false) + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
