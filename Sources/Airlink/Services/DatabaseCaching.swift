import AirlinkCore

/// Whether and when the layers reuse a device's discovered GATT database on a later connection instead of
/// discovering it again (``DeviceManager/Configuration/databaseCaching``; Docs/GATTCaching.md).
///
/// The cache is kept in the device manager's registry (``/AirlinkRegistry/ConnectionRecord/database``), so it
/// outlives the process; without a registry nothing is cached, whatever the setting.
public enum DatabaseCaching: String, Sendable, Hashable, CaseIterable {
    /// Rediscover after every connection (what Airlink did before caching existed).
    case off
    /// Reuse the cache only when the device's Database Hash (0x2B2A, read in one round trip as the link comes
    /// up) matches the one it was taken under; rediscover otherwise, and when the device serves no hash. The
    /// default: no handle is used that Airlink cannot trust.
    case verified
    /// As ``verified``, and also reuse the cache of a device that serves no Database Hash. Opt in only for
    /// devices whose firmware never changes its attribute table, or that indicate Service Changed to a
    /// bonded client: a device that moved handles silently then gets requests on the wrong attributes until
    /// it answers with an error (Database Out Of Sync makes the layers rediscover and retry).
    case trustWithoutHash
}

/// What the layers do with a cached database when a link comes up: a pure decision
/// (``decide(cached:cachedHash:servedHash:caching:changedMeanwhile:)``) that the GATT client performs.
package enum DatabaseCacheDecision: Equatable, Sendable {
    /// Install the cached handles.
    case reuse(DatabaseCacheTrust)
    /// Discover on next use; report the reason if a cache was dropped.
    case rediscover(DatabaseChangeReason?)

    /// Decides.
    ///
    /// - Parameters:
    ///   - cached: whether a cached database exists.
    ///   - cachedHash: the Database Hash it was taken under, or `nil` (none served, or not known then).
    ///   - servedHash: the hash the device serves now, or `nil` when it has none.
    ///   - caching: the app's setting.
    ///   - changedMeanwhile: Service Changed arrived since the last link went down (and was reported then).
    package static func decide(
        cached: Bool, cachedHash: [UInt8]?, servedHash: [UInt8]?, caching: DatabaseCaching, changedMeanwhile: Bool
    ) -> DatabaseCacheDecision {
        guard cached, caching != .off else { return .rediscover(nil) }
        // Already reported (`.databaseChanged(.serviceChanged)`) when the indication arrived.
        if changedMeanwhile { return .rediscover(nil) }
        if let servedHash {
            return servedHash == cachedHash ? .reuse(.hashMatched) : .rediscover(.hashChanged)
        }
        return caching == .trustWithoutHash ? .reuse(.trustedWithoutHash) : .rediscover(.noHash)
    }
}
