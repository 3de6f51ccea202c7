import AirlinkCore

/// What a trace line says, typed: the radio's link-layer facts carry their values, everything else
/// is a category and a text.
///
/// `adapter` is the index of the virtual central (0 for the first, whose lines have no prefix;
/// `hci1 ` and so on for the others).
public enum TraceEvent: Sendable, Hashable {
    /// A scanning central heard an advertisement (a `scan` line): its name, the RSSI the path-loss
    /// model gave it, the advertising data (AD structures) and whether it is connectable.
    case advertisementHeard(
        adapter: Int, device: DeviceID, name: String?, rssi: Int8, data: [UInt8], connectable: Bool)
    /// A link came up at its first connection event (a `radio … connected` line).
    case connected(adapter: Int, device: DeviceID, parameters: ConnectionParameters)
    /// A link went down (a `radio … disconnected` line), with the HCI reason.
    case disconnected(adapter: Int, device: DeviceID, reason: DisconnectionReason)
    /// An ATT PDU crossed the air (an `att` line): its direction, decoded and as bytes.
    case attPDU(adapter: Int, device: DeviceID, direction: ATTDirection, pdu: ATTPDU, bytes: [UInt8])
    /// Any other line: its category (`radio`, `fault`, `event`, `client`, …) and text.
    case line(category: String, text: String)
}
