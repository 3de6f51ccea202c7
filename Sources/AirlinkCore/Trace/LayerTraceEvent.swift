/// What the layers above the transport record in a trace, typed: their events, the registry's
/// saves, the watchdog's deadlines.
///
/// The layers fill it from their own types (the `Airlink` module's `AirlinkEvent` maps onto
/// ``event(_:)``), so that a simulation's trace, which cannot see those types, keeps the facts as
/// data; ``text`` is the one rendering of them, the line golden traces and logs show.
public enum LayerTraceEvent: Sendable, Hashable {
    /// An event the layers published (category `event`).
    case event(LayerEvent)
    /// The registry saved what a connection found (category `registry`): the device, what was
    /// saved, and the device's record after the save.
    case registrySaved(device: DeviceID, what: RegistrySave, connectionCount: Int, serviceCount: Int)
    /// Saving to the registry failed (category `registry`); the app's connection went on.
    case registrySaveFailed(device: DeviceID, what: RegistrySave, error: AirlinkError)
    /// The watchdog gave up on an operation that passed its deadline (category `watchdog`); the
    /// operation was cancelled and, for a GATT operation, the link closed.
    case watchdogGaveUp(device: DeviceID, operation: String, deadline: Duration)

    /// What a registry save recorded.
    public enum RegistrySave: Sendable, Hashable {
        /// An established connection (its count and the services known then).
        case connection
        /// The services a full discovery found.
        case services
        /// The discovered GATT database, cached for later connections.
        case database
        /// The bond a pairing left, or its removal after the device lost it.
        case bond
    }
}

/// An event of the layers, as the trace keeps it: the same cases as the `Airlink` module's
/// `AirlinkEvent`, with the values that matter and nothing the trace cannot hold.
public enum LayerEvent: Sendable, Hashable {
    /// The adapter's power state changed.
    case adapterStateChanged(AdapterState)
    /// A discovery (numbered from 1 per device manager) started, found a device, or stopped.
    case discovery(Int, Discovery)
    /// A device's connection changed.
    case connection(DeviceID, Connection)
    /// A device's services were discovered or changed, or its notifications changed.
    case services(DeviceID, Services)

    /// What a discovery reports.
    public enum Discovery: Sendable, Hashable {
        /// The scan started.
        case started
        /// A device matched the filters: its identity, latest name and RSSI (dBm), if known.
        case discovered(device: DeviceID, name: String?, rssi: Int?)
        /// The discovery stopped.
        case stopped(StopReason)
    }

    /// Why a discovery stopped.
    public enum StopReason: Sendable, Hashable {
        /// Its timeout expired.
        case timeout
        /// The app stopped it.
        case stopped
        /// The adapter went off or became unavailable.
        case adapter(AdapterState)
    }

    /// What happens to a device's connection.
    public enum Connection: Sendable, Hashable {
        /// The app's connect established the link, with this ATT MTU.
        case connected(mtu: Int)
        /// The app's connection attempt failed.
        case failedToConnect(AirlinkError)
        /// An established link was lost.
        case lost(AirlinkError)
        /// The app ended the connection, or stopped reconnecting.
        case terminated
        /// The reconnection strategy tries again: the attempt (from 1), the attempts left with
        /// this one (`nil`: no limit), and what starts it.
        case willReconnect(attempt: Int, remainingAttempts: Int?, trigger: ReconnectionStart)
        /// A reconnection attempt succeeded, with this ATT MTU.
        case reconnected(mtu: Int)
        /// The strategy gave up; the error is the last attempt's.
        case gaveUp(AirlinkError)
        /// The link's security rose: paired (with the method) or encrypted again with a bond (no method).
        case paired(PairingResult)
        /// Pairing failed; the error has the Pairing Failed reason when a side sent one.
        case pairingFailed(AirlinkError)
        /// The peer no longer has the bond this side held (PIN or Key Missing); the bond was forgotten.
        case bondLost
        /// The peripheral asked for security (SMP Security Request) and the policy did not pair for it.
        case securityRequested(SecurityRequest)
    }

    /// What starts a reconnection attempt.
    public enum ReconnectionStart: Sendable, Hashable {
        /// This delay after the loss or the failed attempt.
        case after(Duration)
        /// The device seen advertising, within this long (`nil`: no limit).
        case advertisement(within: Duration?)
    }

    /// What happens to a connected device's services.
    public enum Services: Sendable, Hashable {
        /// Services were discovered; their UUIDs in handle order.
        case discovered([BluetoothUUID])
        /// The device's GATT database changed.
        case changed
        /// The app turned a characteristic's notifications or indications on or off.
        case notificationsChanged(service: BluetoothUUID, characteristic: BluetoothUUID, mode: NotificationMode)
        /// Notifications the app had enabled were enabled again after a reconnection or a change.
        case notificationsRestored(service: BluetoothUUID, characteristic: BluetoothUUID, mode: NotificationMode)
        /// Notifications could not be restored.
        case notificationsRestoreFailed(service: BluetoothUUID, characteristic: BluetoothUUID, error: AirlinkError)
        /// An observer fell behind and values are being dropped.
        case notificationsOverflowed(service: BluetoothUUID, characteristic: BluetoothUUID)
        /// The database the layers had discovered or cached is no longer trusted, for `reason`.
        case databaseChanged(DatabaseChangeReason)
        /// On reconnection the cached database (`services` services) was reused without discovery.
        case databaseCacheReused(DatabaseCacheTrust, services: Int)
        /// The stack's own copy of the database (BlueZ's cache) looks stale, for `reason`.
        case stackCacheStale(StackCacheStaleness)
    }
}
