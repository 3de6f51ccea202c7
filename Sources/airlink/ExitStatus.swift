import AirlinkCore
import ArgumentParser

/// The exit statuses every command follows (Docs/CLI.md, "Exit codes"): one table, so that a script
/// can tell a typing slip from a device that did not answer.
enum ExitStatus {
    /// The command did what was asked.
    static let success: Int32 = 0
    /// A failure at run time: a typed ``/AirlinkCore/AirlinkError`` (the device was not found, did not
    /// answer in time, has no such service...), a check that did not hold (`simulate`, `explore`), or
    /// problems `doctor` found.
    static let failure: Int32 = 1
    /// What the command was pointed at is not there or cannot be used: a device `forget` does not hold, a
    /// scenario that cannot run, a registry or output file that cannot be opened or written.
    static let unusable: Int32 = 2
    /// A stream ended before it gave what was asked: fewer values than `subscribe --count`.
    static let incomplete: Int32 = 3
    /// A stream ended because the link was lost for good (`subscribe` without `--reconnect`, or after it
    /// gave up).
    static let linkLost: Int32 = 4
    /// Bad flags or values: the message says what to type instead (BSD's `EX_USAGE`).
    static let usage: Int32 = 64
}

/// A failure a command reports itself: one `Error:` line on standard error and its exit status.
struct CommandFailure: Error, CustomStringConvertible {
    /// The line printed after `Error: ` (control characters are escaped when printed).
    var message: String
    /// The exit status, one of ``ExitStatus``.
    var status: Int32

    /// A failure with `message` ending the command with `status`.
    init(_ message: String, status: Int32) {
        self.message = message
        self.status = status
    }

    var description: String { message }
}

extension ExitStatus {
    /// What `error`, thrown while a command ran, prints on standard error (nothing for an `ExitCode`
    /// whose command already said why) and the status it exits with.
    static func report(_ error: any Error) -> (message: String?, status: Int32) {
        switch error {
        case let failure as CommandFailure: (failure.message, failure.status)
        case let exit as ExitCode: (nil, exit.rawValue)
        // A value found wrong once the command ran: the same status as when parsing finds it, without
        // the usage line (the flags were well formed).
        case let validation as ValidationError: (validation.message, usage)
        case let error as AirlinkError: (text(of: error), failure)
        default: ("\(error)", failure)
        }
    }

    /// `code: message [context] (cause)` as ``/AirlinkCore/AirlinkError/description`` writes it, without
    /// saying anything twice: a cause or context whose text the message already holds (a D-Bus error's
    /// text that the message quotes, an underlying error the message explains) is left out.
    static func text(of error: AirlinkError) -> String {
        var text = "\(error.code): \(error.message)"
        if let context = error.context, !text.contains(context) { text += " [\(context)]" }
        switch error.cause {
        case nil: break
        case .underlying(let inner):
            if !text.contains(inner.message) { text += " (\(Self.text(of: inner)))" }
        case .bluez(let name, let message) where text.contains(message):
            text += " (\(name))"
        case let cause?:
            if !text.contains(cause.description) { text += " (\(cause))" }
        }
        return text
    }
}
