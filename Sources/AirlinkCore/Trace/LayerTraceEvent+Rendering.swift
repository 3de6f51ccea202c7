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
