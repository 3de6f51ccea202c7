import AirlinkCore
import AirlinkSimulation

/// A btsnoop file (HCI H4, datalink 1002) of a scenario's run, as the central's host would log it.
///
/// Built from the trace's records: LE Set Scan Parameters (active or passive: an active scan makes the
/// controller send scan requests, which a host never sees) and LE Set Scan Enable commands with their
/// Command Complete events, LE Advertising Report events for each reported advertisement and scan response
/// (event type SCAN_RSP), LE Connection Complete and Disconnection Complete events, and ACL data carrying
/// L2CAP (CID 0x0004, ATT) with each PDU's bytes. Wireshark and `tshark -r FILE -V` read it.
/// Timestamps are the virtual times (from 1970-01-01), so the file is the same on every run.
public struct BTSnoopCapture: Sendable {
    /// The file's bytes.
    public private(set) var bytes: [UInt8]
    /// How many ATT PDUs it carries.
    public private(set) var attPDUCount = 0
    /// How many packets it has.
    public private(set) var packetCount = 0

    /// The btsnoop epoch: microseconds from year 0 to 1970-01-01.
    private static let epoch: UInt64 = 0x00dc_ddb3_0f2f_8000

    /// Builds the capture of a run from its trace records, as the first central's host logs it.
    ///
    /// Every value comes from the record: the RSSI and AD bytes of each advertisement heard, the
    /// interval, latency and supervision timeout of each link, the HCI reason of each disconnection,
    /// the bytes and direction of each ATT PDU. Records of other centrals (`hci1` and on) are left
    /// out. A device named by an opaque identifier has no BD_ADDR: its packets carry
    /// 00:00:00:00:00:00.
    ///
    /// - Parameter records: the run's trace records (``/AirlinkSimulation/SimulationTrace/records``).
    public init(records: [TraceRecord]) {
        bytes = Array("btsnoop".utf8) + [0]
        Self.append32(1, to: &bytes)
        Self.append32(1002, to: &bytes)
        var handles: [DeviceID: UInt16] = [:]
        var nextHandle: UInt16 = 0x0040
        for entry in records {
            let time = UInt64(entry.time.offset.nanoseconds / 1_000)
            switch entry.event {
            case .advertisementHeard(0, let device, _, let rssi, let data, let connectable):
                var report: [UInt8] = [0x02, 0x01, connectable ? 0x00 : 0x03, Self.addressType(device)]
                report += Self.address(device)
                report.append(UInt8(data.count))
                report += data
                report.append(UInt8(bitPattern: rssi))
                event(0x3E, report, time)
            case .scanResponseHeard(0, let device, _, let rssi, let data):
                // Event type 0x04: SCAN_RSP, the answer to the scan request the controller sent for an active scan.
                var report: [UInt8] = [0x02, 0x01, 0x04, Self.addressType(device)]
                report += Self.address(device)
                report.append(UInt8(data.count))
                report += data
                report.append(UInt8(bitPattern: rssi))
                event(0x3E, report, time)
            case .line("radio", let text) where text.hasPrefix("scan started "):
                // The host sets the scan up: active (the controller sends scan requests) unless passive.
                let active: UInt8 = text.hasSuffix(" passive") ? 0x00 : 0x01
                command(0x200B, [active] + Self.little16(0x0060) + Self.little16(0x0030) + [0x00, 0x00], time)
                command(0x200C, [0x01, text.contains("duplicates=true") ? 0x00 : 0x01], time)
            case .line("radio", "scan stopped"):
                command(0x200C, [0x00, 0x00], time)
            case .connected(0, let device, let parameters):
                let handle = nextHandle
                nextHandle += 1
                handles[device] = handle
                var complete: [UInt8] = [0x01, 0x00] + Self.little16(handle) + [0x00, Self.addressType(device)]
                complete += Self.address(device)
                complete += Self.little16(UInt16(clamping: parameters.interval.nanoseconds / 1_250_000))
                complete += Self.little16(UInt16(clamping: parameters.latency))
                complete += Self.little16(UInt16(clamping: parameters.supervisionTimeout.nanoseconds / 10_000_000))
                complete.append(0x00)  // central clock accuracy: 500 ppm
                event(0x3E, complete, time)
            case .disconnected(0, let device, let reason):
                guard let handle = handles.removeValue(forKey: device) else { continue }
                event(0x05, [0x00] + Self.little16(handle) + [reason.rawValue], time)
            case .attPDU(0, let device, let direction, _, let pdu):
                guard let handle = handles[device] else { continue }
                let received = direction == .toCentral
                let flags: UInt16 = received ? 0x2000 : 0x0000
                var packet: [UInt8] = [0x02] + Self.little16(handle | flags)
                packet += Self.little16(UInt16(pdu.count + 4)) + Self.little16(UInt16(pdu.count))
                packet += [0x04, 0x00] + pdu
                record(packet, flags: received ? 1 : 0, time: time)
                attPDUCount += 1
            default:
                continue
            }
        }
    }

    /// An HCI command the host sent, and the controller's Command Complete (success) at the same time.
    private mutating func command(_ opcode: UInt16, _ parameters: [UInt8], _ time: UInt64) {
        record([0x01] + Self.little16(opcode) + [UInt8(parameters.count)] + parameters, flags: 2, time: time)
        event(0x0E, [0x01] + Self.little16(opcode) + [0x00], time)
    }

    private mutating func event(_ code: UInt8, _ parameters: [UInt8], _ time: UInt64) {
        record([0x04, code, UInt8(parameters.count)] + parameters, flags: 3, time: time)
    }

    private mutating func record(_ packet: [UInt8], flags: UInt32, time: UInt64) {
        Self.append32(UInt32(packet.count), to: &bytes)
        Self.append32(UInt32(packet.count), to: &bytes)
        Self.append32(flags, to: &bytes)
        Self.append32(0, to: &bytes)
        let stamp = Self.epoch + time
        Self.append32(UInt32(stamp >> 32), to: &bytes)
        Self.append32(UInt32(stamp & 0xFFFF_FFFF), to: &bytes)
        bytes += packet
        packetCount += 1
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// A 16-bit value, least significant byte first, as HCI carries it.
    private static func little16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    /// The device's address, least significant byte first, as HCI carries it.
    private static func address(_ device: DeviceID) -> [UInt8] {
        guard case .address(let address, _) = device.kind else { return [UInt8](repeating: 0, count: 6) }
        return (0..<6).map { UInt8(truncatingIfNeeded: address.value >> UInt64(8 * $0)) }
    }

    /// 0x00 for a public address, 0x01 for a random one.
    private static func addressType(_ device: DeviceID) -> UInt8 {
        guard case .address(_, .random) = device.kind else { return 0x00 }
        return 0x01
    }
}
