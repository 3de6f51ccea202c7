import AirlinkCore

/// A peripheral's new firmware as a fault: the services it serves from now on, and how well it tells its
/// centrals (Core Spec Vol 3, Part G, 2.5.2 and 7).
///
/// A correct firmware indicates Service Changed to the centrals that subscribed and serves the new database's
/// hash. The broken ones of real life are one flag away: ``announcesServiceChanged`` `false` is a firmware that
/// never sends Service Changed; ``DatabaseHash/stale`` one that moves handles but keeps serving the
/// hash of the old layout, so a client trusting the hash keeps stale handles.
///
/// ```swift
/// let newServices = [Service(.battery) { Characteristic(.batteryLevel, properties: [.read], value: UInt8(87)) }]
/// thermostat.updateFirmware(FirmwareUpdate(services: newServices, announcesServiceChanged: false, hash: .stale))
/// ```
public struct FirmwareUpdate: Sendable {
    /// What the new firmware's Database Hash characteristic serves.
    public enum DatabaseHash: String, Sendable, CaseIterable {
        /// The hash of the new database (Vol 3, Part G, 7.3).
        case recomputed
        /// The hash the old database served: the handles moved but the hash says they did not.
        case stale
    }

    /// The services from now on, in handle order.
    public var services: [Service]
    /// Whether subscribed centrals get a Service Changed indication (and bonded ones that were away get it when
    /// they come back).
    public var announcesServiceChanged: Bool
    /// What the Database Hash characteristic serves, if the peripheral serves one.
    public var hash: DatabaseHash

    /// Describes a firmware update.
    ///
    /// - Parameters:
    ///   - services: the new services.
    ///   - announcesServiceChanged: `false` for a firmware that tells no one.
    ///   - hash: `.stale` for a firmware that keeps serving the old hash.
    public init(services: [Service], announcesServiceChanged: Bool = true, hash: DatabaseHash = .recomputed) {
        self.services = services
        self.announcesServiceChanged = announcesServiceChanged
        self.hash = hash
    }

    /// `services=180F,1809 silently stale-hash` for the trace.
    var summary: String {
        var parts = ["services=\(services.map(\.uuid.description).joined(separator: ","))"]
        if !announcesServiceChanged { parts.append("silently") }
        if hash == .stale { parts.append("stale-hash") }
        return parts.joined(separator: " ")
    }
}
