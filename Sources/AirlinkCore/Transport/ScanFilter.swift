/// What a transport's scan reports.
///
/// Service filtering may happen in the controller or stack (BlueZ's `SetDiscoveryFilter`), so it is
/// part of the transport call; name patterns are applied by the discovery layer above.
public struct ScanFilter: Sendable, Hashable {
    /// Report only devices that advertise at least one of these services (`nil`: all devices).
    public var services: [BluetoothUUID]?
    /// Whether every advertisement is reported, or only the first of each device plus changes.
    public var allowDuplicates: Bool
    /// Whether the scan is active: the scanner asks each advertiser that accepts it for its scan
    /// response (a complete name, more services, manufacturer data) and reports it too (Core Spec Vol 6,
    /// Part B, 4.4.3.2). `true` by default, as BlueZ scans; a passive scan only listens.
    public var isActive: Bool

    /// Creates a filter.
    ///
    /// - Parameters:
    ///   - services: the services of interest, or `nil` for every device.
    ///   - allowDuplicates: whether to report every advertisement (default: only new or changed ones).
    ///   - isActive: whether to ask advertisers for their scan responses (default: yes).
    public init(services: [BluetoothUUID]? = nil, allowDuplicates: Bool = false, isActive: Bool = true) {
        self.services = services
        self.allowDuplicates = allowDuplicates
        self.isActive = isActive
    }

    /// Whether an advertisement passes the service filter.
    public func admits(_ advertisement: Advertisement) -> Bool {
        guard let services else { return true }
        let advertised = advertisement.advertisedServices
        return services.contains { advertised.contains($0) }
    }
}
