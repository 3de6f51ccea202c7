extension LayerTraceEvent {
    /// The line's category: `event`, `registry` or `watchdog`.
    public var category: String {
        switch self {
        case .event: "event"
        case .registrySaved, .registrySaveFailed: "registry"
        case .watchdogGaveUp: "watchdog"
        }
    }

    /// The line's text after its category: `C0:FF:EE:00:00:01 reconnected mtu=23`,
    /// `recorded connection of C0:FF:EE:00:00:01 (count 2, 4 services)`,
    /// `C0:FF:EE:00:00:01 read gave up after 30s`.
    public var text: String {
        switch self {
        case .event(let event): event.description
        case .registrySaved(let device, let what, let count, let services):
            "recorded \(what.text(device)) (count \(count), \(services) services)"
        case .registrySaveFailed(let device, let what, let error):
            "saving the \(what.text(device)) failed: \(error.message)"
        case .watchdogGaveUp(let device, let operation, let deadline):
            "\(device) \(operation) gave up after \(deadline.text)"
        }
    }
}

extension LayerTraceEvent.RegistrySave {
    /// What was saved, for `device`, as lines and logs say it: `connection of C0:FF:EE:00:00:01`,
    /// `services of C0:FF:EE:00:00:01`, `database of C0:FF:EE:00:00:01`.
    public func text(_ device: DeviceID) -> String {
        switch self {
        case .connection: "connection of \(device)"
        case .services: "services of \(device)"
        case .database: "database of \(device)"
        case .bond: "bond with \(device)"
        }
    }
}

extension LayerEvent: CustomStringConvertible {
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

    /// The device the event concerns, if any (the discovered device for `discovered`).
    public var device: DeviceID? {
        switch self {
        case .adapterStateChanged: nil
        case .discovery(_, .discovered(let device, _, _)): device
        case .discovery: nil
        case .connection(let device, _), .services(let device, _): device
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

extension LayerEvent.Discovery: CustomStringConvertible {
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
        case .discovered(let device, let name, let rssi):
            "discovered \(device)" + (name.map { " \"\($0)\"" } ?? "") + (rssi.map { " rssi=\($0)" } ?? "")
        case .stopped(let reason): "stopped (\(reason))"
        }
    }
}

extension LayerEvent.StopReason: CustomStringConvertible {
    /// `timeout`, `stopped by the app`, `adapter off`.
    public var description: String {
        switch self {
        case .timeout: "timeout"
        case .stopped: "stopped by the app"
        case .adapter(let state): "adapter \(state)"
        }
    }
}

extension LayerEvent.Connection: CustomStringConvertible {
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
        case .connected(let mtu), .reconnected(let mtu): "\(name) mtu=\(mtu)"
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

extension LayerEvent.ReconnectionStart: CustomStringConvertible {
    /// `after=2s`, `onAdvertisement within=60s`.
    public var description: String {
        switch self {
        case .after(let delay): "after=\(delay.text)"
        case .advertisement(let within): "onAdvertisement within=\(within?.text ?? "unlimited")"
        }
    }
}

extension LayerEvent.Services: CustomStringConvertible {
    /// `servicesDiscovered`, `servicesChanged`, `notificationsChanged`, `notificationsRestored`, ...
    public var name: String {
        switch self {
        case .discovered: "servicesDiscovered"
        case .changed: "servicesChanged"
        case .notificationsChanged: "notificationsChanged"
        case .notificationsRestored: "notificationsRestored"
        case .notificationsRestoreFailed: "notificationsRestoreFailed"
        case .notificationsOverflowed: "notificationsOverflowed"
        case .databaseChanged: "databaseChanged"
        case .databaseCacheReused: "databaseCacheReused"
        case .stackCacheStale: "stackCacheStale"
        }
    }

    /// `servicesDiscovered 1800,180F`, `notificationsRestored 180F/2A19 notify`.
    public var description: String {
        switch self {
        case .discovered(let uuids): "\(name) \(uuids.map(\.description).joined(separator: ","))"
        case .changed: name
        case .notificationsChanged(let service, let characteristic, let mode),
            .notificationsRestored(let service, let characteristic, let mode):
            "\(name) \(service)/\(characteristic) \(mode)"
        case .notificationsRestoreFailed(let service, let characteristic, let error):
            "\(name) \(service)/\(characteristic) \(error)"
        case .notificationsOverflowed(let service, let characteristic): "\(name) \(service)/\(characteristic)"
        case .databaseChanged(let reason): "\(name) \(reason)"
        case .databaseCacheReused(let trust, let services): "\(name) \(trust) services=\(services)"
        case .stackCacheStale(let reason): "\(name) \(reason)"
        }
    }
}
