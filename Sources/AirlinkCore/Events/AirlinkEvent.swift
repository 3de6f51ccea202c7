/// Everything Airlink's layers report, on one typed stream (`DeviceManager.events(where:)`).
///
/// Each layer's own events are wrapped with what identifies their source, so that an app filters
/// with a pattern: `if case .connection(let device, .lost(let error)) = event { ... }`. Every event
/// also goes to the environment's trace, category `event`, as its ``description``, so simulations
/// assert on it. Values of notifications are not events; they go to observers
/// (`DeviceService.values(of:)`), at rates an event stream is not meant for.
public enum AirlinkEvent: Sendable, Hashable, CustomStringConvertible {
    /// The adapter's power state changed: `.poweredOn`, `.poweredOff` or `.unavailable(why)`.
    case adapterStateChanged(AdapterState)
    /// A discovery (numbered from 1 per device manager) started, found a device, or stopped.
    case discovery(Int, DiscoveryEvent)
    /// A device's connection changed: established, failed, lost, reconnecting, reconnected, gave up.
    case connection(DeviceID, ConnectionEvent)
    /// A device's services were discovered or changed, or its notifications changed.
    case services(DeviceID, ServicesEvent)

    /// The device the event concerns, if any (a discovered device for `discovered`).
    public var device: DeviceID? {
        switch self {
        case .adapterStateChanged: nil
        case .discovery(_, .discovered(let device)): device.id
        case .discovery: nil
        case .connection(let device, _), .services(let device, _): device
        }
    }

    /// A short name for filters and assertions: `adapterStateChanged`, `discovered`, `lost`,
    /// `willReconnect(2)`, `notificationsRestored`.
    public var name: String {
        switch self {
        case .adapterStateChanged: "adapterStateChanged"
        case .discovery(_, let event): event.name
        case .connection(_, let event): event.name
        case .services(_, let event): event.name
        }
    }

    /// One line for traces and logs: `C0:FF:EE:00:00:01 lost linkLost: ...`.
    public var description: String {
        switch self {
        case .adapterStateChanged(let state): "adapter \(state)"
        case .discovery(let id, let event): "discovery#\(id) \(event)"
        case .connection(let device, let event): "\(device) \(event)"
        case .services(let device, let event): "\(device) \(event)"
        }
    }
}
