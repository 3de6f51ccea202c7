import AirlinkCore

/// A trace's lines and what they record, laid out so that recording costs no allocation of its own.
///
/// The lines are one run of UTF-8 bytes; per line an ``Entry`` says where it ends and what it
/// records, in a plain value that copies without reference counting. ATT PDUs, most of a traced
/// run, keep their bytes back to back in ``pduBytes`` and their link as an index into ``peers``;
/// they are decoded again only when ``record(_:)`` is asked for them. Other typed events are kept
/// whole in ``events``.
struct SimulationTraceStorage {
    /// What a line records besides its text.
    enum Payload {
        /// A free-form line: its category and text are the bytes.
        case line
        /// A typed event: its index in ``events``.
        case event(Int)
        /// An ATT PDU: its link in ``peers``, its direction, and its bytes in ``pduBytes``.
        case pdu(peer: Int32, direction: ATTDirection, start: Int32, end: Int32)
    }

    /// One line: where its category and text start and where it ends in ``bytes``, its time, and
    /// what it records.
    struct Entry {
        var categoryStart: Int
        var textStart: Int
        var end: Int
        var time: AirlinkInstant
        var payload: Payload
    }

    /// A link's two ends as an ATT PDU's record names them, and the start of its PDUs' lines
    /// (`hci1 C0:FF:EE:00:00:01`), written once.
    struct Peer {
        var adapter: Int
        var device: DeviceID
        var prefix: [UInt8]
    }

    var bytes: [UInt8] = []
    var entries: [Entry] = []
    var pduBytes: [UInt8] = []
    var peers: [Peer] = []
    var events: [TraceEvent] = []
    /// The index in ``peers`` of the last PDU's link: a run's PDUs mostly follow one another on one link.
    private var lastPeer = 0

    /// The index of a link in ``peers``, added if new.
    mutating func peer(_ adapter: Int, _ device: DeviceID) -> Int {
        func matches(_ peer: Peer) -> Bool { peer.adapter == adapter && peer.device == device }
        if lastPeer < peers.count, matches(peers[lastPeer]) { return lastPeer }
        lastPeer = peers.firstIndex(where: matches) ?? peers.count
        if lastPeer == peers.count {
            var writer = TraceLineWriter(bytes: [])
            TraceEvent.writePrefix(adapter, device, to: &writer)
            peers.append(Peer(adapter: adapter, device: device, prefix: writer.bytes))
        }
        return lastPeer
    }

    /// Writes the line's time and category, then lets `write` write its text in place (`write`
    /// may only format, never record).
    mutating func append(
        _ now: AirlinkInstant, _ category: String, _ payload: Payload, writing write: (inout TraceLineWriter) -> Void
    ) {
        var writer = TraceLineWriter(bytes: [])
        swap(&writer.bytes, &bytes)
        writer.write("t=")
        writer.write(now.description)
        writer.write(ascii: " ")
        let categoryStart = writer.bytes.count
        writer.write(category)
        writer.write(ascii: " ")
        let textStart = writer.bytes.count
        write(&writer)
        swap(&writer.bytes, &bytes)
        entries.append(
            Entry(categoryStart: categoryStart, textStart: textStart, end: bytes.count, time: now, payload: payload))
    }

    func start(_ index: Int) -> Int { index == 0 ? 0 : entries[index - 1].end }

    /// Forgets every line and what it records; the links' prefixes stay, as later PDUs name them again. The
    /// arrays keep their capacity: what one step between prints records, not what the whole run did.
    mutating func forgetLines() {
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        pduBytes.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
    }

    func string(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
        }
    }

    func line(_ index: Int) -> String { string(start(index)..<entries[index].end) }

    /// The record of line `index`.
    func record(_ index: Int) -> TraceRecord {
        let entry = entries[index]
        switch entry.payload {
        case .line:
            let category = string(entry.categoryStart..<(entry.textStart - 1))
            return TraceRecord(
                time: entry.time, event: .line(category: category, text: string(entry.textStart..<entry.end)))
        case .event(let event):
            return TraceRecord(time: entry.time, event: events[event])
        case .pdu(let peer, let direction, let start, let end):
            let bytes = Array(pduBytes[Int(start)..<Int(end)])
            do throws(AirlinkError) {
                let pdu = try ATTPDU(decoding: bytes)
                let peer = peers[Int(peer)]
                return TraceRecord(
                    time: entry.time,
                    event: .attPDU(
                        adapter: peer.adapter, device: peer.device, direction: direction, pdu: pdu, bytes: bytes))
            } catch {
                // The radio decoded or encoded these very bytes when they crossed the air.
                preconditionFailure("a traced ATT PDU no longer decodes: \(error.message)")
            }
        }
    }
}
