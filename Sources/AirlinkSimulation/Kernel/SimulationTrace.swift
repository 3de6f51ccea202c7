import AirlinkCore
import Synchronization

/// The trace of a simulation: one record per event, stamped with virtual time, and its text.
///
/// ``records`` are the data (an advertisement with its RSSI and AD bytes, a link with its
/// parameters, a disconnection with its reason, an ATT PDU with its bytes, the layers' events, a
/// scenario client's actions, any free-form line with its category and text); ``text`` renders
/// them for golden files and logs, one line each: `t=12.345678 category text`. Nothing in them
/// depends on the wall clock, on memory addresses or on hash order, so the same seed gives a
/// byte-identical trace in every run and every process; golden files compare them as text.
public final class SimulationTrace: TraceSink, @unchecked Sendable {
    // @unchecked: `storage` is behind its Mutex; `clock` is immutable and Sendable.
    private let clock: any ClockBackend
    private let storage = Mutex(SimulationTraceStorage())
    /// Whether lines are kept: set at creation, cleared for good by ``seal()``.
    private let keeping: Atomic<Bool>

    init(clock: any ClockBackend, enabled: Bool) {
        self.clock = clock
        self.keeping = Atomic(enabled)
    }

    /// Whether a record is kept now; read by the simulation's thread only while it runs, so relaxed.
    private var enabled: Bool { keeping.load(ordering: .relaxed) }

    /// Keeps no further record: the run is over, and what its winding down does (tasks failed as the
    /// radio goes away) is not part of it.
    func seal() { keeping.store(false, ordering: .relaxed) }

    /// Appends one free-form line, stamped with the current virtual time.
    public func record(_ category: String, _ text: @autoclosure () -> String) {
        guard enabled else { return }
        let text = text()
        append(category, .line) { $0.write(text) }
    }

    /// Appends one typed event of the layers, stamped with the current virtual time.
    public func record(_ event: @autoclosure () -> LayerTraceEvent) {
        guard enabled else { return }
        record(.layer(event()))
    }

    /// Appends one typed record, stamped with the current virtual time; its line is the event's
    /// rendering (``TraceEvent/text``). An ATT PDU is kept as its bytes, as the radio records it.
    public func record(_ event: @autoclosure () -> TraceEvent) {
        guard enabled else { return }
        let event = event()
        if case .attPDU(let adapter, let device, let direction, let pdu, let bytes) = event {
            recordPDU(adapter: adapter, device: device, direction: direction, pdu: pdu, bytes: bytes)
            return
        }
        let category = event.category
        let now = clock.now
        storage.withLock { storage in
            let index = storage.events.count
            storage.events.append(event)
            storage.append(now, category, .event(index)) { event.write(to: &$0) }
        }
    }

    /// Appends an ATT PDU that crossed the air, the hottest record of a traced run: its line is
    /// written in place and its bytes kept once; ``records`` decodes the PDU again when read.
    func recordPDU(adapter: Int, device: DeviceID, direction: ATTDirection, pdu: ATTPDU, bytes: [UInt8]) {
        guard enabled else { return }
        let now = clock.now
        storage.withLock { storage in
            let peer = storage.peer(adapter, device)
            let start = storage.pduBytes.count
            storage.pduBytes.append(contentsOf: bytes)
            let payload = SimulationTraceStorage.Payload.pdu(
                peer: Int32(peer), direction: direction, start: Int32(start), end: Int32(storage.pduBytes.count))
            let prefix = storage.peers[peer].prefix
            storage.append(now, "att", payload) { writer in
                writer.bytes.append(contentsOf: prefix)
                writer.write(ascii: " ")
                writer.write(ascii: direction.arrow)
                writer.write(ascii: " ")
                pdu.write(to: &writer)
            }
        }
    }

    /// Writes a free-form line (no typed event to keep).
    private func append(
        _ category: String, _ payload: SimulationTraceStorage.Payload, writing write: (inout TraceLineWriter) -> Void
    ) {
        let now = clock.now
        storage.withLock { storage in storage.append(now, category, payload, writing: write) }
    }

    /// Whether lines are kept (the simulation was made with `tracing: true`).
    var isEnabled: Bool { enabled }

    /// Every line so far, in order.
    public var lines: [String] {
        storage.withLock { storage in storage.entries.indices.map { storage.line($0) } }
    }

    /// Every record so far, in order, one per line: typed where the event is (see ``TraceEvent``),
    /// free-form lines as ``TraceEvent/line(category:text:)``.
    public var records: [TraceRecord] {
        storage.withLock { storage in storage.entries.indices.map { storage.record($0) } }
    }

    /// The lines recorded since the last call, in order, which the trace then forgets: a server that runs for
    /// days prints its trace as it goes and keeps none of it, so its memory stays flat whatever its hosts send.
    /// ``records``, ``lines`` and ``count`` start again after it.
    package func takeLines() -> [String] {
        storage.withLock { storage in
            defer { storage.forgetLines() }
            return storage.entries.indices.map { storage.line($0) }
        }
    }

    /// As ``takeLines()``, each line with its typed record.
    package func take() -> [(record: TraceRecord, line: String)] {
        storage.withLock { storage in
            defer { storage.forgetLines() }
            return storage.entries.indices.map { (storage.record($0), storage.line($0)) }
        }
    }

    /// The number of lines so far.
    public var count: Int { storage.withLock { $0.entries.count } }

    /// The whole trace as text, one line each, ending with a newline.
    public var text: String {
        let lines = self.lines
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// The texts of one category's records, in order: their lines without time stamps and category.
    public func events(in category: String) -> [String] {
        storage.withLock { storage in
            storage.entries.indices.compactMap { index in
                let entry = storage.entries[index]
                guard storage.string(entry.categoryStart..<(entry.textStart - 1)) == category else { return nil }
                return storage.string(entry.textStart..<entry.end)
            }
        }
    }
}
