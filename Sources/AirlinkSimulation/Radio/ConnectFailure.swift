import AirlinkCore

/// How an injected connection attempt fails, named as the stack reports it.
public enum ConnectFailure: Sendable, Hashable, CustomStringConvertible {
    /// BlueZ's `le-connection-abort-by-local`: the controller gave up on the attempt
    /// (``/AirlinkCore/AirlinkError/Code/connectionFailed``, cause `org.bluez.Error.Failed`).
    case abortedByLocal
    /// BlueZ's "Operation already in progress" (``/AirlinkCore/AirlinkError/Code/operationInProgress``, cause
    /// `org.bluez.Error.InProgress`).
    case alreadyInProgress
    /// The link was set up but died at once: HCI 0x3E Connection Failed to be Established
    /// (``/AirlinkCore/AirlinkError/Code/connectionFailed``).
    case failedToEstablish
    /// The peripheral never answers the connection request: the attempt runs into its timeout.
    case noAnswer

    /// The error a `connect` throws for this failure.
    func error(for device: DeviceID) -> AirlinkError? {
        switch self {
        case .abortedByLocal:
            AirlinkError(
                .connectionFailed,
                "connecting to \(device) failed: le-connection-abort-by-local; the controller gave up, try again",
                cause: .bluez(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"))
        case .alreadyInProgress:
            AirlinkError(
                .operationInProgress,
                "connecting to \(device) failed: Operation already in progress; wait for the other attempt",
                cause: .bluez(name: "org.bluez.Error.InProgress", message: "Operation already in progress"))
        case .failedToEstablish:
            AirlinkError(
                .connectionFailed,
                "connecting to \(device) failed: \(DisconnectionReason.failedToEstablish)",
                cause: .injected("connection failed to be established"))
        case .noAnswer:
            nil
        }
    }

    /// `le-connection-abort-by-local`, `in-progress`, `failed-to-establish`, `no-answer`.
    public var description: String {
        switch self {
        case .abortedByLocal: "le-connection-abort-by-local"
        case .alreadyInProgress: "in-progress"
        case .failedToEstablish: "failed-to-establish"
        case .noAnswer: "no-answer"
        }
    }
}
