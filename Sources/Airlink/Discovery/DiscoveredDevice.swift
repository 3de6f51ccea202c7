import AirlinkCore

/// A device a ``Discovery`` found: its latest advertisement and signal strength, and when it was seen.
public struct DiscoveredDevice: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The device's identity, to connect to it.
    public var id: DeviceID
    /// The latest advertisement received.
    public var advertisement: Advertisement
    /// The latest name advertised (kept when a later advertisement carries none).
    public var name: String?
    /// The RSSI of the latest advertisement, in dBm, if reported.
    public var rssi: Int?
    /// When the device was first seen matching the filters.
    public var firstSeen: AirlinkInstant
    /// When its latest advertisement arrived.
    public var lastSeen: AirlinkInstant
    /// How many advertisements of the device the discovery received since it matched.
    public var sightings: Int

    /// `C0:FF:EE:00:00:01 "Tracker 1" rssi=-60`.
    public var description: String {
        var text = id.description
        if let name { text += " \"\(name)\"" }
        if let rssi { text += " rssi=\(rssi)" }
        return text
    }
}

/// How a ``Discovery`` scans.
public struct ScanOptions: Sendable, Hashable {
    /// Whether each advertisement of a device already discovered is reported again
    /// (``DiscoveryEvent/discovered(_:)`` with a growing ``DiscoveredDevice/sightings``), or only
    /// its first one. The list of devices is updated either way.
    public var reportsDuplicates: Bool

    /// Creates options.
    ///
    /// - Parameter reportsDuplicates: whether every advertisement is reported (default: the first only).
    public init(reportsDuplicates: Bool = false) {
        self.reportsDuplicates = reportsDuplicates
    }
}
