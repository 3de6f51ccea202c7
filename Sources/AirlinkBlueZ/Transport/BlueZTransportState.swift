import AirlinkCore

/// Everything a ``BlueZTransport`` knows, behind one lock. Changed by signal handlers, replies and
/// timers on the D-Bus loop thread; read by callers.
struct BlueZTransportState: Sendable {
    /// BlueZ's objects.
    var tree = BlueZObjectTree()
    /// Why BlueZ or the bus is gone, once it is.
    var lost: String?
    /// org.bluez's unique name, to recognise its signals.
    var owner: String?
    /// The running scan's filter.
    var scan: ScanFilter?
    /// One link record per device object, by path.
    var links: [String: BlueZLink] = [:]
    /// Operations awaiting a reply, by identifier.
    var operations: [UInt64: PendingOperation] = [:]
    var nextOperation: UInt64 = 1
    /// Whether `close()` was called.
    var closed = false
}

/// One device's link: its state machine and who waits on it.
struct BlueZLink: Sendable {
    var id: DeviceID
    var machine: BlueZLinkStateMachine
    var connectWaiter: OneShot<Void>?
    var timers: [UInt64] = []
    /// Characteristics whose values are delivered as notifications, by path (set before StartNotify,
    /// so a value that arrives before its reply is not lost).
    var subscriptions: [String: NotificationMode] = [:]
    var disconnectWaiters: [OneShot<Void>] = []
}

/// An operation awaiting BlueZ, failed promptly when its link drops.
struct PendingOperation: Sendable {
    var device: String
    var fail: @Sendable (AirlinkError) -> Void
}

/// What a state change asks for once the lock is released: events in order, then work.
struct BlueZEffects {
    var events: [TransportEvent] = []
    var work: [@Sendable () -> Void] = []
}
