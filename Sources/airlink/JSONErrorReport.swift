import AirlinkCore
import Foundation

/// A failure as `--json` reports it: one line on standard error, `{"error": {...}}`, with the error's code, its
/// message, what to do about it and the exit status (Docs/CLI.md, "Errors under --json"). Standard output keeps
/// only results, so a script reading it never takes an error for a value.
struct JSONErrorReport: Encodable {
    /// The error itself.
    struct Body: Encodable {
        /// The ``/AirlinkCore/AirlinkError``'s code (`deviceNotFound`), or for a failure the CLI finds itself
        /// the name of its exit status: `usage`, `failure`, `unusable`, `incomplete`, `linkLost`.
        var code: String
        /// What was wrong, as the text form's `Error:` line says it (without the code).
        var message: String
        /// What to do about it (Docs/ErrorCatalogue.md's "what to do").
        var advice: String
        /// The status the command exits with (Docs/CLI.md, "Exit codes").
        var exitCode: Int32
    }

    var error: Body

    /// Whether the command line asks for JSON: `--json` among the arguments before any `--`.
    static var isRequested: Bool {
        CommandLine.arguments.dropFirst().prefix { $0 != "--" }.contains("--json")
    }

    /// The report of `error`, thrown while a command ran, with the message and status the text form has.
    init(_ error: any Error, message: String?, status: Int32) {
        guard let airlink = error as? AirlinkError else {
            self.init(status: status, message: message ?? "\(error)")
            return
        }
        let code = "\(airlink.code)"
        let text = message ?? airlink.message
        self.init(
            error: Body(
                code: code, message: text.hasPrefix(code + ": ") ? String(text.dropFirst(code.count + 2)) : text,
                advice: Self.whatToDo(about: airlink) ?? Self.statusAdvice(status), exitCode: status))
    }

    /// A report of `error`.
    init(error: Body) { self.error = error }

    /// The report of a failure the CLI finds itself (a usage error while parsing, a stream that ended early).
    init(status: Int32, message: String) {
        error = Body(
            code: Self.statusName(status), message: message, advice: Self.statusAdvice(status), exitCode: status)
    }

    /// Writes the report as one line on standard error.
    func write() {
        let text = Output.jsonLine(self) + "\n"
        _ = text.withCString { Glibc.write(2, $0, strlen($0)) }
    }

    static func statusName(_ status: Int32) -> String {
        switch status {
        case ExitStatus.usage: "usage"
        case ExitStatus.unusable: "unusable"
        case ExitStatus.incomplete: "incomplete"
        case ExitStatus.linkLost: "linkLost"
        default: "failure"
        }
    }

    static func statusAdvice(_ status: Int32) -> String {
        switch status {
        case ExitStatus.usage: "correct the flag or value the message names, as it says; see airlink COMMAND --help"
        case ExitStatus.unusable: "check the path or the id the message names"
        case ExitStatus.incomplete: "raise --duration, or ask for fewer values with --count"
        case ExitStatus.linkLost: "bring the device back in range; --reconnect keeps the stream across losses"
        default: "see the message"
        }
    }

    /// What to do about `error`: Docs/ErrorCatalogue.md's advice for its code, but for a connect that timed out after
    /// its link came up, which is not a question of range or advertising.
    static func whatToDo(about error: AirlinkError) -> String? {
        if error.code == .timeout, linkCameUp(error.message) { return setupTimeoutAdvice }
        return advice["\(error.code)"]
    }

    /// What to do when a connect's link came up but its set-up (the MTU exchange, the database's check or, on BlueZ,
    /// the services' resolution) did not finish within the timeout.
    static let setupTimeoutAdvice =
        "the device answered and the link came up, but its set-up did not finish in time: raise --connect-timeout "
        + "(a slow device needs more than the default 10 s), then retry"

    /// Whether a timeout's message says the link came up before it: the virtual radio's "the link came up on air",
    /// BlueZ's "BlueZ reported Connected true".
    static func linkCameUp(_ message: String) -> Bool {
        message.contains("the link came up") || message.contains("BlueZ reported Connected true")
    }

    /// Docs/ErrorCatalogue.md's "what to do", by code, as a command-line user acts on it.
    static let advice: [String: String] = [
        "invalidUUID": "write 4 or 8 hex digits, the 36-character form, or an assigned name such as battery-level",
        "invalidDeviceID": "write an address such as C0:FF:EE:00:00:01, with /random for a random one",
        "invalidArgument": "correct the argument the message names, within its limit",
        "malformedData": "the device sent bytes that break their format; report them",
        "invalidSpecification": "correct the file at the line and column the message names",
        "timeout": "check the device is in range and advertising; raise the timeout",
        "cancelled": "none: the operation was cancelled",
        "adapterPoweredOff": "power the adapter on (bluetoothctl power on)",
        "transportUnavailable": "run airlink doctor: it says what is missing and how to install it",
        "deviceNotFound": "run airlink scan to list the devices, and check the id",
        "notConnected": "connect first",
        "connectionFailed": "retry; bring the device closer",
        "linkLost": "reconnect; the cause says why the link dropped",
        "operationInProgress": "wait for the other operation, then retry",
        "serviceNotFound": "run airlink connect DEVICE to list its services and characteristics",
        "characteristicNotFound": "run airlink connect DEVICE to list its services and characteristics",
        "descriptorNotFound": "run airlink connect DEVICE to list its services and characteristics",
        "operationNotSupported": "use an operation the characteristic's properties allow (airlink connect lists them)",
        "attribute": "the device refused with the ATT error named; pair first if it asks for authentication",
        "databaseOutOfSync": "retry: the device changed its database",
        "pairingFailed": "check the passkey or the numbers shown, and pair again",
        "bondLost": "forget the bond and pair again",
        "simulationStalled": "the work waits on something outside the simulation; report it with the seed",
        "escapedWork": "report it: work left the simulation",
        "storageFailed": "check the registry path's permissions and free space; give the path of a regular file",
        "corruptStore": "inspect or delete the file the message names (Docs/Registry.md)",
        "unsupportedStoreVersion": "upgrade Airlink, or move the registry away to start a new one",
        "internalError": "report it with the message",
    ]
}
