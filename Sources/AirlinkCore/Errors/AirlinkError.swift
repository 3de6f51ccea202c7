/// The one error type of Airlink.
///
/// Modelled on swift-nio's `FileSystemError`: a ``Code`` that can grow without breaking the API, a
/// ``message`` that tells the user what went wrong and what to do, the underlying ``cause`` kept
/// verbatim, and the ``context`` in which it happened.
///
/// ```swift
/// do { try await service.write(value, to: .batteryLevel) }
/// catch let error where error.code == .attribute { print(error.attError ?? "?") }
/// ```
public struct AirlinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; switch on it to decide how to react.
    public var code: Code
    /// A sentence for people: what was wrong and, where possible, what to do.
    public var message: String
    /// The underlying cause, kept verbatim (an ATT error, a BlueZ D-Bus error, an injected fault).
    public var cause: Cause?
    /// Where it happened, for example `"read 2A19 on C0:FF:EE:00:00:01"`.
    public var context: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - message: what was wrong and what to do.
    ///   - cause: the underlying cause, if any.
    ///   - context: where it happened, if known.
    public init(_ code: Code, _ message: String, cause: Cause? = nil, context: String? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
        self.context = context
    }

    /// The ATT error behind this error, if the peer answered with one.
    public var attError: ATTError? {
        if case .att(let error, _) = cause { return error }
        return nil
    }

    /// `code: message [context] (cause)`, one line.
    public var description: String {
        var text = "\(code): \(message)"
        if let context { text += " [\(context)]" }
        if let cause { text += " (\(cause))" }
        return text
    }

    /// Returns a copy of this error with `context` set, keeping an existing, more precise context.
    public func with(context: String) -> AirlinkError {
        var copy = self
        if copy.context == nil { copy.context = context }
        return copy
    }
}
