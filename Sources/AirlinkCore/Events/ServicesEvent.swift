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
    /// receives carries the number it missed (`CharacteristicValue.missedBefore`).
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
    /// `DeviceManager.dropDatabaseCaches(of:timeout:)` (or `airlink refresh-cache`).
    case stackCacheStale(StackCacheStaleness)

    /// `servicesDiscovered`, `servicesChanged`, `notificationsChanged`, `notificationsRestored`, ...
    public var name: String {
        switch self {
        case .discovered: "servicesDiscovered"
        case .changed: "servicesChanged"
        case .notificationsChanged: "notificationsChanged"
        case .notificationsRestored: "notificationsRestored"
        case .notificationsRestoreFailed: "notificationsRestoreFailed"
        case .notificationsOverflowed: "notificationsOverflowed"
        case .databaseChanged: "databaseChanged"
        case .databaseCacheReused: "databaseCacheReused"
        case .stackCacheStale: "stackCacheStale"
        }
    }

    /// `servicesDiscovered 1800,180F`, `notificationsRestored 180F/2A19 notify`.
    public var description: String {
        switch self {
        case .discovered(let uuids): "\(name) \(uuids.map(\.description).joined(separator: ","))"
        case .changed: name
        case .notificationsChanged(let service, let characteristic, let mode),
            .notificationsRestored(let service, let characteristic, let mode):
            "\(name) \(service)/\(characteristic) \(mode)"
        case .notificationsRestoreFailed(let service, let characteristic, let error):
            "\(name) \(service)/\(characteristic) \(error)"
        case .notificationsOverflowed(let service, let characteristic): "\(name) \(service)/\(characteristic)"
        case .databaseChanged(let reason): "\(name) \(reason)"
        case .databaseCacheReused(let trust, let services): "\(name) \(trust) services=\(services)"
        case .stackCacheStale(let reason): "\(name) \(reason)"
        }
    }
}
