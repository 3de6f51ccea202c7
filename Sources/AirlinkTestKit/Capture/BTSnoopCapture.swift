import AirlinkCore

/// A btsnoop file (HCI H4, datalink 1002) of a scenario's run, as the central's host would log it.
///
/// Built from the trace and the captured ATT PDUs: LE Advertising Report events for each reported
/// advertisement, LE Connection Complete and Disconnection Complete events, and ACL data carrying
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

    /// Builds the capture of a run.
    ///
    /// - Parameters:
    ///   - lines: the run's trace lines.
    ///   - pdus: the ATT PDUs by the index of their trace line (``ScenarioResult/capturedPDUs``).
    ///   - devices: the world's peripherals, for addresses and advertising data.
    public init(lines: [String], pdus: [Int: [UInt8]], devices: [ScenarioResult.Device]) {
        bytes = Array("btsnoop".utf8) + [0]
        Self.append32(1, to: &bytes)
        Self.append32(1002, to: &bytes)
        var handles: [DeviceID: UInt16] = [:]
        var nextHandle: UInt16 = 0x0040
        for (index, line) in lines.enumerated() {
            let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count >= 3, parts[0].hasPrefix("t="), let seconds = Double(parts[0].dropFirst(2)) else {
                continue
            }
            let time = UInt64((seconds * 1_000_000).rounded())
            let category = parts[1]
            let device = DeviceID(String(parts[2]))
            let rest = parts.count > 3 ? String(parts[3]) : ""
            guard let device, let info = devices.first(where: { $0.id == device }) else { continue }
            switch category {
            case "scan":
                let rssi =
                    rest.split(separator: "rssi=").last.flatMap { Int8($0.prefix { $0 == "-" || $0.isNumber }) } ?? -60
                var report: [UInt8] = [0x02, 0x01, info.connectable ? 0x00 : 0x03, 0x00]
                report += Self.address(device)
                report.append(UInt8(info.advertisingData.count))
                report += info.advertisingData
                report.append(UInt8(bitPattern: rssi))
                event(0x3E, report, time)
            case "radio" where rest.hasPrefix("connected"):
                let handle = nextHandle
                nextHandle += 1
                handles[device] = handle
                var complete: [UInt8] = [0x01, 0x00, UInt8(handle & 0xFF), UInt8(handle >> 8), 0x00, 0x00]
                complete += Self.address(device)
                complete += [0x18, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00]  // 30 ms, latency 0, 420 ms
                event(0x3E, complete, time)
            case "radio" where rest.hasPrefix("disconnected"):
                guard let handle = handles.removeValue(forKey: device) else { continue }
                let code = rest.split(separator: "(0x").last.flatMap { UInt8($0.prefix(2), radix: 16) } ?? 0x13
                event(0x05, [0x00, UInt8(handle & 0xFF), UInt8(handle >> 8), code], time)
            case "att":
                guard let pdu = pdus[index], let handle = handles[device] else { continue }
                let received = rest.hasPrefix("<")
                let flags: UInt16 = received ? 0x2000 : 0x0000
                let header = handle | flags
                var packet: [UInt8] = [0x02, UInt8(header & 0xFF), UInt8(header >> 8)]
                let length = pdu.count + 4
                packet += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(pdu.count & 0xFF), UInt8(pdu.count >> 8)]
                packet += [0x04, 0x00] + pdu
                record(packet, flags: received ? 1 : 0, time: time)
                attPDUCount += 1
            default:
                continue
            }
        }
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

    /// A public address, least significant byte first, as HCI carries it.
    private static func address(_ device: DeviceID) -> [UInt8] {
        let octets = device.description.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        return octets.count == 6 ? octets.reversed() : [UInt8](repeating: 0, count: 6)
    }
}
