import AirlinkCore

/// What a trace line says, typed: the radio's link-layer facts, the layers' events, registry saves
/// and watchdog deadlines, a scenario client's actions and its inspectors' lines carry their
/// values; free-form lines (the radio's fault and peripheral notes, scenario actions, a user's own
/// log lines) are a category and a text.
///
/// `adapter` is the index of the virtual central (0 for the first, whose lines have no prefix;
/// `hci1 ` and so on for the others).
public enum TraceEvent: Sendable, Hashable {
    /// A scanning central heard an advertisement (a `scan` line): its name, the RSSI the path-loss
    /// model gave it, the advertising data (AD structures) and whether it is connectable.
    case advertisementHeard(
        adapter: Int, device: DeviceID, name: String?, rssi: Int8, data: [UInt8], connectable: Bool)
    /// An active scanner heard a device's scan response (a `scan … scan response` line): its name, its RSSI and
    /// its data (AD structures).
    case scanResponseHeard(adapter: Int, device: DeviceID, name: String?, rssi: Int8, data: [UInt8])
    /// A central started connecting to a device (a `radio … connecting (timeout 5s)` line), with
    /// the attempt's timeout.
    case connecting(adapter: Int, device: DeviceID, timeout: Duration)
    /// A connection attempt ended unanswered at its timeout (a `radio … connection attempt timed
    /// out` line).
    case connectionAttemptTimedOut(adapter: Int, device: DeviceID)
    /// A link came up at its first connection event (a `radio … connected` line).
    case connected(adapter: Int, device: DeviceID, parameters: ConnectionParameters)
    /// A central's link finished its set-up (the MTU exchange and what the central reads first) and is usable (a
    /// `radio … ready mtu=247` line), with the ATT MTU it agreed.
    case linkReady(adapter: Int, device: DeviceID, mtu: UInt16)
    /// A central wrote a peripheral's Client Characteristic Configuration (a `peripheral … 0x000D notify=on
    /// indicate=off` line): the characteristic's value handle and what is now on.
    case subscriptionChanged(adapter: Int, device: DeviceID, valueHandle: ATTHandle, notify: Bool, indicate: Bool)
    /// A link went down (a `radio … disconnected` line), with the HCI reason.
    case disconnected(adapter: Int, device: DeviceID, reason: DisconnectionReason)
    /// A step of the Security Manager's exchange on a link (an `smp` line: `C0:FF:EE:00:00:01 method Just Works`).
    case pairing(adapter: Int, device: DeviceID, step: PairingStep)
    /// An ATT PDU crossed the air (an `att` line): its direction, decoded and as bytes.
    case attPDU(adapter: Int, device: DeviceID, direction: ATTDirection, pdu: ATTPDU, bytes: [UInt8])
    /// What the layers above the transport recorded: an event (`event`), a registry save
    /// (`registry`), a watchdog deadline (`watchdog`).
    case layer(LayerTraceEvent)
    /// What a scenario's client did (`client`).
    case client(ClientTraceEvent)
    /// What centrals did to a scenario's inspector (`inspector`).
    case inspector(InspectorTraceEvent)
    /// Any other line: its category (`radio`, `fault`, `peripheral`, `scenario`, `client`, …) and text.
    case line(category: String, text: String)
}
