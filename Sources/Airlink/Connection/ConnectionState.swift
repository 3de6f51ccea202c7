import AirlinkCore

/// Where a device's connection stands, as ``ConnectionManager/state`` reports it.
public enum ConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// No link, and none is being made.
    case disconnected
    /// The app's connection attempt is under way.
    case connecting
    /// The link is up and usable.
    case connected(LinkInfo)
    /// The app asked to disconnect; the link is being closed.
    case disconnecting
    /// The link was lost and the reconnection strategy is at work: which attempt (from 1), how many
    /// remain including it (`nil`: no limit), and what it is doing now.
    case reconnecting(attempt: Int, remainingAttempts: Int?, phase: ReconnectionPhase)

    /// Whether the link is up.
    public var isConnected: Bool {
        if case .connected = self { return true }
        return false
    }

    /// `disconnected`, `connecting`, `connected`, `disconnecting`, `reconnecting(2, waiting)`.
    public var description: String {
        switch self {
        case .disconnected: "disconnected"
        case .connecting: "connecting"
        case .connected: "connected"
        case .disconnecting: "disconnecting"
        case .reconnecting(let attempt, _, let phase): "reconnecting(\(attempt), \(phase))"
        }
    }
}

/// What a reconnection is doing.
public enum ReconnectionPhase: Sendable, Hashable, CustomStringConvertible {
    /// Waiting out the strategy's delay.
    case waiting
    /// Scanning, waiting for the device to advertise.
    case waitingForAdvertisement
    /// Waiting for the adapter to be powered on again.
    case waitingForAdapter
    /// A connection attempt is under way.
    case connecting

    /// The case's name.
    public var description: String {
        switch self {
        case .waiting: "waiting"
        case .waitingForAdvertisement: "waitingForAdvertisement"
        case .waitingForAdapter: "waitingForAdapter"
        case .connecting: "connecting"
        }
    }
}
