import AirlinkCore

/// How a ``Discovery`` scans.
public struct ScanOptions: Sendable, Hashable {
    /// Whether each advertisement of a device already discovered is reported again
    /// (``/AirlinkCore/DiscoveryEvent/discovered(_:)`` with a growing ``/AirlinkCore/DiscoveredDevice/sightings``), or
    /// only its first one. The list of devices is updated either way.
    public var reportsDuplicates: Bool
    /// Whether the scan asks advertisers for their scan responses (``/AirlinkCore/ScanFilter/isActive``):
    /// on by default, as BlueZ scans; off, a device's complete name, when only its scan response carries
    /// it, is never heard.
    public var scansActively: Bool

    /// Creates options.
    ///
    /// - Parameters:
    ///   - reportsDuplicates: whether every advertisement is reported (default: the first only).
    ///   - scansActively: whether scan responses are asked for (default: yes).
    public init(reportsDuplicates: Bool = false, scansActively: Bool = true) {
        self.reportsDuplicates = reportsDuplicates
        self.scansActively = scansActively
    }
}
