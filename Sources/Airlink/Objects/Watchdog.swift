import AirlinkCore

/// The deadlines of the object API (``Central``, ``Peripheral`` and the objects they hand out): how
/// long a connection attempt or one operation may take before the watchdog gives up on it.
///
/// When a deadline passes, the call throws ``/AirlinkCore/AirlinkError/Code/timeout`` naming the operation and the
/// deadline. A stuck GATT operation also ends the link: an ATT transaction that does not complete
/// leaves the bearer unusable (Core Spec Vol 3, Part F, 3.3.3: "no more attribute protocol requests
/// ... shall be sent"), so the watchdog disconnects the peripheral, which fails whatever waited behind
/// the stuck request. Reconnect to go on.
///
/// ```swift
/// let central = try Central(manager: manager, watchdog: Watchdog(connect: .seconds(10), operation: .seconds(5)))
/// ```
public struct Watchdog: Sendable, Hashable {
    /// The longest a connection attempt may take, or `nil` for no watchdog (the transport's own
    /// connect timeout still applies).
    public var connectDeadline: Duration?
    /// The longest one GATT operation (a discovery, read, write, notification change, RSSI read) may
    /// take, or `nil` for no watchdog.
    public var operationDeadline: Duration?

    /// Creates deadlines.
    ///
    /// - Parameters:
    ///   - connect: for connection attempts; 30 s by default.
    ///   - operation: for each operation; 30 s by default, ATT's transaction timeout (Vol 3, Part F, 3.3.3).
    public init(connect: Duration? = .seconds(30), operation: Duration? = .seconds(30)) {
        connectDeadline = connect
        operationDeadline = operation
    }

    /// No watchdog: calls wait as long as the layers and the transport do.
    public static let disabled = Watchdog(connect: nil, operation: nil)

    /// Checks that the deadlines are positive.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the deadline.
    func validate() throws(AirlinkError) {
        for (name, deadline) in [("connect", connectDeadline), ("operation", operationDeadline)] {
            if let deadline, deadline <= .zero {
                throw AirlinkError(
                    .invalidArgument,
                    "the watchdog's \(name) deadline is \(deadline.text); pass a positive duration, or nil for none")
            }
        }
    }
}
