import AirlinkCore

/// What a GATT server keeps about one client for attribute caching (Core Spec Vol 3, Part G, 2.5.2.1, 7.1, 7.2):
/// the Client Supported Features it wrote, whether it is change-aware, and a Service Changed range it has not
/// confirmed yet.
///
/// For a client without a bond it lasts one connection and starts change-aware; for a bonded one the server keeps
/// it across connections (``ATTServer/clientState``; the virtual radio's peripherals do so when their spec's
/// ``/AirlinkCore/PeripheralSpec/bondsWithCentrals`` is set).
public struct ATTClientCachingState: Hashable, Sendable {
    /// The Client Supported Features bits the client set (Vol 3, Part G, 7.2): bit 0 robust caching, bit 1
    /// Enhanced ATT bearer, bit 2 Multiple Handle Value Notifications. Bits once set stay set.
    public internal(set) var supportedFeatures: UInt8 = 0
    /// Whether the server considers the client aware of its latest database (Vol 3, Part G, 2.5.2.1).
    public internal(set) var isChangeAware = true
    /// A changed handle range indicated on Service Changed (or due to be, for a bonded client that was away) and
    /// not confirmed yet.
    public internal(set) var unconfirmedServiceChange: ClosedRange<ATTHandle>?
    /// The client read the Database Hash while change-unaware: its next request makes it change-aware.
    var readDatabaseHash = false
    /// The server answered the client with Database Out Of Sync: its next request makes it change-aware.
    var sentOutOfSync = false

    /// The bits of Client Supported Features the server knows (Vol 3, Part G, 7.2.1); others are not stored.
    public static let knownFeatures: UInt8 = 0x07

    /// A client as it starts a connection without a bond: change-aware, no features.
    public init() {}

    /// Whether the client enabled robust caching (Client Supported Features bit 0).
    public var hasRobustCaching: Bool { supportedFeatures & 0x01 != 0 }

    /// The database changed: the client no longer knows it, and a Database Out Of Sync already sent does not
    /// count for this change (Vol 3, Part G, 2.5.2.1).
    mutating func databaseChanged(_ range: ClosedRange<ATTHandle>?, announced: Bool) {
        isChangeAware = false
        readDatabaseHash = false
        sentOutOfSync = false
        guard announced, let range else { return }
        unconfirmedServiceChange = unconfirmedServiceChange.map { $0.covering(range) } ?? range
    }

    /// The client caught up (it confirmed Service Changed, or sent a request after reading the hash or after
    /// Database Out Of Sync).
    mutating func becameChangeAware() {
        isChangeAware = true
        readDatabaseHash = false
        sentOutOfSync = false
    }
}

extension ClosedRange where Bound == ATTHandle {
    /// The smallest range holding both.
    func covering(_ other: ClosedRange<ATTHandle>) -> ClosedRange<ATTHandle> {
        Swift.min(lowerBound, other.lowerBound)...Swift.max(upperBound, other.upperBound)
    }
}
