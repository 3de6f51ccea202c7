import AirlinkCore
import Synchronization

/// The trace of a simulation: one record per event, stamped with virtual time, and its text.
///
/// ``records`` are the data (an advertisement with its RSSI and AD bytes, a link with its
/// parameters, a disconnection with its reason, an ATT PDU with its bytes, any other line with its
/// category and text); ``text`` renders them for golden files and logs, one line each:
/// `t=12.345678 category text`. Nothing in them depends on the wall clock, on memory addresses or on
/// hash order, so the same seed gives a byte-identical trace in every run and every process; golden
/// files compare them as text.
public final class SimulationTrace: TraceSink, @unchecked Sendable {
    // @unchecked: `storage` is behind its Mutex; `clock` is immutable and Sendable.
    /// The lines as one run of UTF-8 bytes and, per line, where it ends and what it records: a line
    /// costs no allocation of its own.
    private struct Storage {
        var bytes: [UInt8] = []
        var entries: [Entry] = []

        func start(_ index: Int) -> Int { index == 0 ? 0 : entries[index - 1].end }

        func string(_ range: Range<Int>) -> String {
            bytes.withUnsafeBufferPointer { buffer in
                String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
            }
        }

        func line(_ index: Int) -> String { string(start(index)..<entries[index].end) }

        func record(_ index: Int) -> TraceRecord {
            let entry = entries[index]
            if let event = entry.event { return TraceRecord(time: entry.time, event: event) }
            let category = string(entry.categoryStart..<(entry.textStart - 1))
            return TraceRecord(
                time: entry.time, event: .line(category: category, text: string(entry.textStart..<entry.end)))
        }
    }

    /// One line: where its category and text start and where it ends in `bytes`, its time, and its
    /// typed event (nil for a plain line, whose category and text are the bytes).
    private struct Entry {
        var categoryStart: Int
        var textStart: Int
        var end: Int
        var time: AirlinkInstant
        var event: TraceEvent?
    }

    private let clock: any ClockBackend
    private let storage = Mutex(Storage())
    private let enabled: Bool

    init(clock: any ClockBackend, enabled: Bool) {
        self.clock = clock
        self.enabled = enabled
    }

    /// Appends one plain line, stamped with the current virtual time.
    public func record(_ category: String, _ text: @autoclosure () -> String) {
        guard enabled else { return }
        let text = text()
        append(category, nil) { $0.write(text) }
    }

    /// Appends one typed record, stamped with the current virtual time; its line is the event's
    /// rendering (``TraceEvent/text``).
    func record(_ event: @autoclosure () -> TraceEvent) {
        guard enabled else { return }
        let event = event()
        append(event.category, event) { event.write(to: &$0) }
    }

    /// Writes the line's time and category, then lets `write` write its text in place, under the
    /// trace's lock (`write` may only format, never record).
    private func append(_ category: String, _ event: TraceEvent?, writing write: (inout TraceLineWriter) -> Void) {
        let now = clock.now
        let stamp = now.description
        storage.withLock { storage in
            var writer = TraceLineWriter(bytes: [])
            swap(&writer.bytes, &storage.bytes)
            writer.write("t=")
            writer.write(stamp)
            writer.write(ascii: " ")
            let categoryStart = writer.bytes.count
            writer.write(category)
            writer.write(ascii: " ")
            let textStart = writer.bytes.count
            write(&writer)
            swap(&writer.bytes, &storage.bytes)
            storage.entries.append(
                Entry(
                    categoryStart: categoryStart, textStart: textStart, end: storage.bytes.count, time: now,
                    event: event))
        }
    }

    /// Whether lines are kept (the simulation was made with `tracing: true`).
    var isEnabled: Bool { enabled }

    /// Every line so far, in order.
    public var lines: [String] {
        storage.withLock { storage in storage.entries.indices.map { storage.line($0) } }
    }

    /// Every record so far, in order, one per line: the radio's link-layer facts typed, every other
    /// line as ``TraceEvent/line(category:text:)``.
    public var records: [TraceRecord] {
        storage.withLock { storage in storage.entries.indices.map { storage.record($0) } }
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
