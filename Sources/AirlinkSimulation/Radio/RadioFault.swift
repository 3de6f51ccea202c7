import AirlinkCore

/// A fault to inject later: what the verbs of ``SimulatedPeripheral`` and ``VirtualRadio`` do,
/// as a value that can be scheduled.
public enum RadioFault: Sendable {
    /// The peripheral ends every link with `reason`.
    case dropLink(DisconnectionReason)
    /// The peripheral goes out of range; its links are lost after the supervision timeout.
    case moveOutOfRange
    /// The peripheral comes back in range.
    case moveBackInRange
    /// The peripheral moves.
    case move(to: Position)
    /// The next connection attempts fail.
    case failNextConnects(Int, ConnectFailure)
    /// The next matching requests are answered with an ATT error.
    case respond(ATTOperation, ATTError, times: Int)
    /// The next matching requests are never answered.
    case neverRespond(ATTOperation, times: Int)
    /// Responses to matching requests are delayed.
    case delayResponses(ATTOperation, by: Duration, times: Int)
    /// The peripheral reboots.
    case reset
    /// The peripheral's database changes.
    case changeDatabase([Service])
    /// The peripheral installs new firmware: its database changes, told or untold, with a recomputed or a stale
    /// hash (``FirmwareUpdate``).
    case updateFirmware(FirmwareUpdate)
    /// The peripheral sends a burst of notifications of a characteristic.
    case burstNotifications(BluetoothUUID, count: Int)
    /// The central's adapter powers off.
    case powerOffAdapter
    /// The central's adapter powers on.
    case powerOnAdapter
}
