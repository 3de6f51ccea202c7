/// The one error type of Airlink.
///
/// Modelled on swift-nio's `FileSystemError`: a ``Code`` that can grow without breaking the API, a
/// ``message`` that tells the user what went wrong and what to do, the underlying ``cause`` kept
/// verbatim, and the ``context`` in which it happened.
///
/// ```swift
/// do {
///     try await service.write(value, to: .batteryLevel)
/// } catch {
///     guard error.code == .attribute else { throw error }
///     print(error.attError ?? "?")
/// }
/// ```
public struct AirlinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The fields, in one reference: an `AirlinkError` is one pointer wide. Swift 6.3.1 miscompiles
    /// calls of some `async throws(E)` functions when `E` is a large struct (the seam's
    /// `discoverDescriptors(_:of:in:)` and, in release builds, `discoverCharacteristics(_:of:uuids:)`
    /// crashed); with the fields boxed it passes in a register. Copy-on-write keeps value semantics.
    /// `TypedThrowsMiscompileTests` (AirlinkSimulationTests) reproduces the miscompile and guards the fix.
    private final class Storage: @unchecked Sendable {
        // @unchecked: never mutated after it is shared (mutations copy it first).
        var code: Code
        var message: String
        var cause: Cause?
        var context: String?

        init(code: Code, message: String, cause: Cause?, context: String?) {
            self.code = code
            self.message = message
            self.cause = cause
            self.context = context
        }

        func copy() -> Storage { Storage(code: code, message: message, cause: cause, context: context) }
    }

    private var storage: Storage

    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// What kind of failure this is; switch on it to decide how to react.
    public var code: Code {
        get { storage.code }
        set { unique().code = newValue }
    }
    /// A sentence for people: what was wrong and, where possible, what to do.
    public var message: String {
        get { storage.message }
        set { unique().message = newValue }
    }
    /// The underlying cause, kept verbatim (an ATT error, a BlueZ D-Bus error, an injected fault).
    public var cause: Cause? {
        get { storage.cause }
        set { unique().cause = newValue }
    }
    /// Where it happened, for example `"read 2A19 on C0:FF:EE:00:00:01"`.
    public var context: String? {
        get { storage.context }
        set { unique().context = newValue }
    }

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - message: what was wrong and what to do.
    ///   - cause: the underlying cause, if any.
    ///   - context: where it happened, if known.
    public init(_ code: Code, _ message: String, cause: Cause? = nil, context: String? = nil) {
        storage = Storage(code: code, message: message, cause: cause, context: context)
    }

    /// Errors are equal when code, message, cause and context are.
    public static func == (lhs: AirlinkError, rhs: AirlinkError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.cause == rhs.cause && lhs.context == rhs.context
    }

    /// Hashes code, message, cause and context.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(cause)
        hasher.combine(context)
    }

    /// The reason a side gave when it ended pairing, if it did.
    public var pairingFailureReason: PairingFailureReason? {
        if case .smp(let reason) = cause { return reason }
        return nil
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
