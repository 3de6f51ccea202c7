import AirlinkCore

extension TraceEvent {
    /// The line's category: `scan`, `radio`, `smp`, `att`, the layer event's (`event`, `registry`,
    /// `watchdog`), `client`, `inspector`, or the plain line's own.
    public var category: String {
        switch self {
        case .advertisementHeard, .scanResponseHeard: "scan"
        case .connecting, .connectionAttemptTimedOut, .connected, .linkReady, .disconnected: "radio"
        case .subscriptionChanged: "peripheral"
        case .pairing: "smp"
        case .attPDU: "att"
        case .layer(let event): event.category
        case .client: "client"
        case .inspector: "inspector"
        case .line(let category, _): category
        }
    }

    /// The line's text after its category, as golden traces have it:
    /// `C0:FF:EE:00:00:01 "Thermo" rssi=-58`, `C0:FF:EE:00:00:01 connected interval=30ms …`,
    /// `C0:FF:EE:00:00:01 disconnected: Connection Timeout (0x08)`,
    /// `hci1 C0:FF:EE:00:00:01 > ATT_READ_REQ handle=0x0003`.
    public var text: String {
        var writer = TraceLineWriter(bytes: [])
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Writes ``text`` into a trace line; an ATT PDU's line without an intermediate string.
    func write(to writer: inout TraceLineWriter) {
        switch self {
        case .advertisementHeard(let adapter, let device, let name, let rssi, _, _):
            Self.writePrefix(adapter, device, to: &writer)
            writer.write(" \"\(name ?? "")\" rssi=\(rssi)")
        case .scanResponseHeard(let adapter, let device, let name, let rssi, _):
            Self.writePrefix(adapter, device, to: &writer)
            writer.write(" scan response \"\(name ?? "")\" rssi=\(rssi)")
        case .connecting(let adapter, let device, let timeout):
            Self.writePrefix(adapter, device, to: &writer)
            writer.write(" connecting (timeout ")
            writer.write(timeout.traceDescription)
            writer.write(ascii: ")")
        case .connectionAttemptTimedOut(let adapter, let device):
            Self.writePrefix(adapter, device, to: &writer)
            writer.write(" connection attempt timed out")
        case .connected(let adapter, let device, let parameters):
            Self.writePrefix(adapter, device, to: &writer)
            writer.write(" connected ")
            writer.write(parameters.description)
        case .linkReady(let adapter, let device, let mtu):
            Self.writePrefix(adapter, device, to: &writer)
            writer.write(" ready mtu=\(mtu)")
        case .subscriptionChanged(let adapter, let device, let valueHandle, let notify, let indicate):
            Self.writePrefix(adapter, device, to: &writer)
            writer.write(" \(valueHandle) notify=\(notify ? "on" : "off") indicate=\(indicate ? "on" : "off")")
        case .pairing(let adapter, let device, let step):
            Self.writePrefix(adapter, device, to: &writer)
            writer.write(ascii: " ")
            writer.write(step.text)
        case .disconnected(_, let device, let reason):
            // The line names no adapter (the golden traces were written so).
            writer.write(device: device)
            writer.write(" disconnected: ")
            writer.write(reason.description)
        case .attPDU(let adapter, let device, let direction, let pdu, _):
            Self.writePrefix(adapter, device, to: &writer)
            writer.write(ascii: " ")
            writer.write(ascii: direction.arrow)
            writer.write(ascii: " ")
            pdu.write(to: &writer)
        case .layer(let event):
            writer.write(event.text)
        case .client(let event):
            writer.write(event.text)
        case .inspector(let event):
            writer.write(event.text)
        case .line(_, let text):
            writer.write(text)
        }
    }

    /// `hci1 C0:FF:EE:00:00:01`: the central's prefix (none for the first) and the device.
    static func writePrefix(_ adapter: Int, _ device: DeviceID, to writer: inout TraceLineWriter) {
        if adapter != 0 {
            writer.write("hci")
            writer.write(decimal: adapter)
            writer.write(ascii: " ")
        }
        writer.write(device: device)
    }
}
