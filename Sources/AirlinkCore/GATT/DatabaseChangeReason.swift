/// Why the layers stopped trusting the GATT database they had discovered (or cached) for a device, as
/// `.databaseChanged(reason)` reports it (Core Spec Vol 3, Part G, 2.5.2): the cached handles are dropped
/// and discovered again on next use.
public enum DatabaseChangeReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// On reconnection the device's Database Hash (0x2B2A) differed from the one the cache was taken under.
    case hashChanged
    /// The device indicated Service Changed (0x2A05) on the link.
    case serviceChanged
    /// The device answered a request with Database Out Of Sync (ATT 0x12).
    case outOfSync
    /// On reconnection the device served no Database Hash, so the cache could not be checked, and the app
    /// did not opt in to trusting it: the safe default rediscovers.
    case noHash

    /// The case's name: `hashChanged`, `serviceChanged`, `outOfSync`, `noHash`.
    public var description: String { rawValue }
}

/// Why the layers reused a cached GATT database on reconnection, without discovering it.
public enum DatabaseCacheTrust: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The device's Database Hash matched the one the cache was taken under.
    case hashMatched
    /// The device serves no Database Hash and the app opted in to trusting cached handles anyway.
    case trustedWithoutHash

    /// The case's name: `hashMatched`, `trustedWithoutHash`.
    public var description: String { rawValue }
}
