/// What happens to one device's connection, in order, as its `ConnectionManager` reports it.
///
/// The same events reach the device manager's stream as ``AirlinkEvent/connection(_:_:)``.
public enum ConnectionEvent: Sendable, Hashable, CustomStringConvertible {
    /// The app's `ConnectionManager.connect(timeout:)` established the link.
    case connected(LinkInfo)
    /// The app's connection attempt failed (timed out, refused, cancelled, adapter off).
    case failedToConnect(AirlinkError)
    /// An established link was lost; the error's message ends with the reason the stack gave (an HCI code:
    /// `the link to C0:FF:EE:00:00:01 was lost (Connection Timeout (0x08))`).
    case lost(AirlinkError)
    /// The app ended the connection (`ConnectionManager.disconnect()`), or stopped reconnecting.
    case terminated
    /// The reconnection strategy decided to try again: the attempt's number (from 1), how many
    /// attempts remain including this one (`nil`: no limit), and what starts it.
    case willReconnect(attempt: Int, remainingAttempts: Int?, trigger: ReconnectionTrigger)
    /// A reconnection attempt succeeded; enabled notifications are being restored.
    case reconnected(LinkInfo)
    /// The strategy gave up after failed attempts; the error is the last attempt's.
    case gaveUp(AirlinkError)
    /// The link's security rose: paired (``/AirlinkCore/PairingResult/method`` says how) or encrypted again with
    /// the bond (no method), by `ConnectionManager.pair(features:agent:)` or by the `PairingPolicy`.
    case paired(PairingResult)
    /// Pairing failed: a side sent Pairing Failed (``/AirlinkCore/AirlinkError/pairingFailureReason``), nobody
    /// answered in time, or the transport cannot pair. The link stays up.
    case pairingFailed(AirlinkError)
    /// The device no longer has the bond this side held (PIN or Key Missing); the layers forgot it too (on the
    /// transport and in the registry), so the next `ConnectionManager.pair(features:agent:)` pairs afresh.
    case bondLost
    /// The device sent a Security Request (SMP 0x0B) and the `PairingPolicy` does not pair for it
    /// (`PairingPolicy.pairsWhenRefused` is off): the app decides whether to call
    /// `ConnectionManager.pair(features:agent:)`. With the flag on, the layers pair (or encrypt with the bond)
    /// instead, and report ``paired(_:)`` or ``pairingFailed(_:)``. Only the virtual radio delivers requests;
    /// on BlueZ, bluetoothd answers them itself.
    case securityRequested(SecurityRequest)

    /// A short name for assertions and filters: `lost`, `willReconnect(3)`, `reconnected`.
    public var name: String {
        switch self {
        case .connected: "connected"
        case .failedToConnect: "failedToConnect"
        case .lost: "lost"
        case .terminated: "terminated"
        case .willReconnect(_, let remaining, _): remaining.map { "willReconnect(\($0))" } ?? "willReconnect"
        case .reconnected: "reconnected"
        case .gaveUp: "gaveUp"
        case .paired: "paired"
        case .pairingFailed: "pairingFailed"
        case .bondLost: "bondLost"
        case .securityRequested: "securityRequested"
        }
    }

    /// The name and what matters, never a wall-clock time: `reconnected mtu=23`,
    /// `willReconnect attempt=2 remaining=unlimited after=2s`,
    /// `paired just works level 2 (encrypted) keySize=16 bonded`.
    public var description: String {
        switch self {
        case .connected(let info), .reconnected(let info): "\(name) mtu=\(info.mtu)"
        case .failedToConnect(let error), .lost(let error), .gaveUp(let error), .pairingFailed(let error):
            "\(name) \(error)"
        case .terminated, .bondLost: name
        case .securityRequested(let request): "securityRequested \(request)"
        case .paired(let result): "paired " + (result.method.map { "\($0) " } ?? "with the bond ") + "\(result)"
        case .willReconnect(let attempt, let remaining, let trigger):
            "willReconnect attempt=\(attempt) remaining=\(remaining.map(String.init) ?? "unlimited") \(trigger)"
        }
    }
}
