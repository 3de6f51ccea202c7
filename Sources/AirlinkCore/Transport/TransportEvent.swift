/// What a ``Transport`` observes, in the order it observes it.
public enum TransportEvent: Sendable, Hashable {
    /// The adapter's power state changed.
    case adapterStateChanged(AdapterState)
    /// A device advertised (during a scan); the advertisement carries RSSI and connectability.
    case advertisement(DeviceID, Advertisement)
    /// A link came up (after `connect`, or one the stack re-established).
    case connected(DeviceID)
    /// A link went down; the last event of that link.
    case disconnected(DeviceID, reason: DisconnectionReason)
    /// A characteristic's value arrived as a notification or indication.
    case notification(DeviceID, handle: ATTHandle, value: [UInt8])
    /// The device's GATT database changed (Service Changed); cached discoveries are stale: those in `range`, the
    /// affected handle range the indication carried, when the transport knows it (the virtual radio does); all of
    /// them when `range` is `nil` (BlueZ, which re-exports the changed objects but does not say which range).
    case servicesChanged(DeviceID, range: ClosedRange<ATTHandle>? = nil)
    /// The stack's bond with the device appeared (a pairing this app's `pair` did not run: another tool's, or
    /// one the device asked for) or went away (the user or the stack removed it). BlueZ reports its `Bonded`
    /// property (and `Paired` turning false); the virtual radio's bonds change only through `pair` and
    /// `forgetBond`, so it never sends this.
    case bondChanged(DeviceID, bonded: Bool)
    /// The peripheral sent a Security Request (SMP 0x0B): it wants the link paired, or encrypted with the bond.
    /// Only the virtual radio sends this; BlueZ never does, because bluetoothd answers Security Requests itself
    /// (it pairs, or encrypts with its bond, through its agent).
    case securityRequested(DeviceID, SecurityRequest)
}
