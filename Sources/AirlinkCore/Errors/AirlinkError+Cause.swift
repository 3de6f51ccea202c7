extension AirlinkError {
    /// The underlying cause of an ``AirlinkError``, kept verbatim.
    public enum Cause: Sendable, Hashable, CustomStringConvertible {
        /// The peer answered with an ATT Error Response (Core Spec Vol 3, Part F, 3.4.1.1).
        case att(ATTError, handle: ATTHandle?)
        /// BlueZ answered a D-Bus call with an error: its name (`org.bluez.Error.Failed`) and text.
        case bluez(name: String, message: String)
        /// A fault injected by a simulation, described as it appears in the trace.
        case injected(String)
        /// A side of a pairing sent Pairing Failed with this reason (Core Spec Vol 3, Part H, 3.5.5).
        case smp(PairingFailureReason)
        /// A system call failed with `errno`.
        case posix(errno: Int32, call: String)
        /// Another Airlink error that led to this one.
        indirect case underlying(AirlinkError)
        /// Any other error, described.
        case other(String)

        /// One line, for logs and messages.
        public var description: String {
            switch self {
            case .att(let error, let handle):
                if let handle { return "ATT \(error) on handle \(handle)" }
                return "ATT \(error)"
            case .bluez(let name, let message): return "\(name): \(message)"
            case .injected(let fault): return "injected fault: \(fault)"
            case .smp(let reason): return "SMP Pairing Failed: \(reason)"
            case .posix(let errno, let call): return "\(call) failed with errno \(errno)"
            case .underlying(let error): return error.description
            case .other(let text): return text
            }
        }
    }
}
