import AirlinkCore

/// What happens to the services of one connected device, as ``AirlinkEvent/services(_:_:)`` reports it.
public enum ServicesEvent: Sendable, Hashable, CustomStringConvertible {
    /// Services were discovered; their UUIDs, in handle order.
    case discovered([BluetoothUUID])
    /// The device's GATT database changed (Service Changed, Core Spec Vol 3, Part G, 7.1): cached
    /// handles were dropped and are discovered again on next use.
    case changed
    /// The app turned notifications or indications of a characteristic on or off.
    case notificationsChanged(service: BluetoothUUID, characteristic: BluetoothUUID, mode: NotificationMode)
    /// After a reconnection or a database change, notifications the app had enabled were enabled
    /// again, without the app doing anything.
    case notificationsRestored(service: BluetoothUUID, characteristic: BluetoothUUID, mode: NotificationMode)
    /// Notifications could not be restored; the app should enable them again or give up.
    case notificationsRestoreFailed(service: BluetoothUUID, characteristic: BluetoothUUID, error: AirlinkError)
    /// An observer fell behind and its buffer filled: values are being dropped. The next value it
    /// receives carries the number it missed (``CharacteristicValue/missedBefore``).
    case notificationsOverflowed(service: BluetoothUUID, characteristic: BluetoothUUID)
    /// The database the layers had discovered or cached for the device is no longer trusted, for
    /// `reason` (Docs/GATTCaching.md): its handles were dropped and are discovered again on next use.
    case databaseChanged(DatabaseChangeReason)
    /// On reconnection the database cached in the registry (`services` services) was reused without
    /// discovery: the device's Database Hash matched, or the app trusts caches of devices without one.
    case databaseCacheReused(DatabaseCacheTrust, services: Int)
    /// The transport's stack keeps a copy of the database of its own (BlueZ's cache,
    /// ``/AirlinkCore/StackDatabaseCache``) and that copy looks stale, for `reason`: the device changed but the
    /// stack still serves what it served before. Rediscovery cannot help until the copy is dropped, with
    /// ``DeviceManager/dropDatabaseCaches(of:timeout:)`` (or `airlink refresh-cache`).
    case stackCacheStale(StackCacheStaleness)

    /// `servicesDiscovered`, `servicesChanged`, `notificationsChanged`, `notificationsRestored`, ...
    public var name: String { traced.name }

    /// One line for traces and logs.
    public var description: String { traced.description }
}
