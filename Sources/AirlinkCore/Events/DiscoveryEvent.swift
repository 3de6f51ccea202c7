/// What a `Discovery` reports, in order: started, discovered devices, stopped.
public enum DiscoveryEvent: Sendable, Hashable, CustomStringConvertible {
    /// The scan started.
    case started
    /// A device matched the discovery's filters: the first time, or again with a new advertisement
    /// when the `ScanOptions.reportsDuplicates` option is on (``DiscoveredDevice/sightings`` counts).
    case discovered(DiscoveredDevice)
    /// The discovery stopped, for the reason given; it reports nothing after this.
    case stopped(DiscoveryStopReason)

    /// `started`, `discovered`, `stopped`.
    public var name: String {
        switch self {
        case .started: "started"
        case .discovered: "discovered"
        case .stopped: "stopped"
        }
    }

    /// `started`, `discovered C0:FF:EE:00:00:01 "Tracker 1" rssi=-60`, `stopped (timeout)`.
    public var description: String {
        switch self {
        case .started: "started"
        case .discovered(let device): "discovered \(device)"
        case .stopped(let reason): "stopped (\(reason))"
        }
    }
}

/// Why a `Discovery` stopped.
public enum DiscoveryStopReason: Sendable, Hashable, CustomStringConvertible {
    /// Its timeout expired.
    case timeout
    /// The app stopped it early with `Discovery.stop()`.
    case stopped
    /// The adapter was powered off or became unavailable.
    case adapter(AdapterState)

    /// `timeout`, `stopped by the app`, `adapter off`.
    public var description: String {
        switch self {
        case .timeout: "timeout"
        case .stopped: "stopped by the app"
        case .adapter(let state): "adapter \(state)"
        }
    }
}
