/// A capability of a ``Transport`` whose stack keeps a copy of each device's GATT database of its own: the
/// copy a stale cache lives in, and the way to drop it (Docs/GATTCaching.md, "BlueZ's own cache").
///
/// BlueZ answers discovery from the objects it exported when it resolved the device's services, and with
/// `[GATT] Cache = always` or `yes` in `/etc/bluetooth/main.conf` it keeps them across connections (and restarts,
/// for bonded devices). A device whose firmware moved handles without telling (no Service Changed, a hash that
/// did not change, or a BlueZ that did not check it) is then served the old layout. The layers check it through
/// this protocol: when the device's Database Hash changed but the stack still answers discovery with the database
/// the layers cached under the old hash, they report ``StackCacheStaleness/hashMismatch`` and an app (or
/// `airlink refresh-cache`) drops the stack's copy with ``dropDatabaseCache(_:)``.
///
/// The virtual radio conforms too: its central discovers over the air (``answersDiscoveryFromOwnCache`` is
/// `false`), and dropping forgets what it keeps of a peripheral between links (its Service Changed handle).
public protocol StackDatabaseCache: Transport {
    /// Whether discovery calls are answered from a copy the stack keeps across connections (BlueZ), rather than
    /// from the device on each link (the virtual radio): only then can a discovery be stale.
    var answersDiscoveryFromOwnCache: Bool { get }

    /// Drops the stack's copy of the device's database, so that the next connection discovers it from the device.
    ///
    /// On BlueZ this is `Adapter1.RemoveDevice`: the device's objects go, with its pairing, and it must be heard
    /// again in a scan before it can be connected (a link up at the time is taken down). It fails with
    /// ``AirlinkError/Code/timeout`` when BlueZ does not answer within the transport's operation timeout.
    ///
    /// - Throws: ``AirlinkError/Code/deviceNotFound`` when the stack does not know the device (nothing cached);
    ///   ``AirlinkError/Code/adapterPoweredOff``; ``AirlinkError/Code/timeout``.
    func dropDatabaseCache(_ device: DeviceID) async throws(AirlinkError)
}

/// Why the layers believe a stack's own copy of a device's database (``StackDatabaseCache``) is stale.
public enum StackCacheStaleness: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The device's Database Hash differs from the one the registry's cache was taken under, yet the stack still
    /// answers discovery with exactly that cached database: it did not rediscover after the device changed.
    case hashMismatch
    /// The device answered Database Out Of Sync (ATT 0x12) to a request the stack made on handles it keeps.
    case outOfSync

    /// The case's name: `hashMismatch`, `outOfSync`.
    public var description: String { rawValue }
}
