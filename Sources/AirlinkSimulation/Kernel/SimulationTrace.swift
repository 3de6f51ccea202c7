import AirlinkCore
import Synchronization

/// The trace of a simulation: one line per event, stamped with virtual time.
///
/// Lines read `t=12.345678 category text`. Nothing in them depends on the wall clock, on memory
/// addresses or on hash order, so the same seed gives a byte-identical trace in every run and every
/// process; golden files compare them as text.
public final class SimulationTrace: TraceSink, @unchecked Sendable {
    // @unchecked: `storage` is behind its Mutex; `clock` is immutable and Sendable.
    /// The lines as one run of UTF-8 bytes and the end of each: a line costs no allocation of its own.
    private struct Storage {
        var bytes: [UInt8] = []
        var ends: [Int] = []

        func line(_ index: Int) -> String {
            let start = index == 0 ? 0 : ends[index - 1]
            return bytes.withUnsafeBufferPointer { buffer in
                String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<ends[index]]), as: UTF8.self)
            }
        }
    }

    private let clock: any ClockBackend
    private let storage = Mutex(Storage())
    private let enabled: Bool

    init(clock: any ClockBackend, enabled: Bool) {
        self.clock = clock
        self.enabled = enabled
    }

    /// Appends one line, stamped with the current virtual time.
    public func record(_ category: String, _ text: @autoclosure () -> String) {
        guard enabled else { return }
        let text = text()
        record(category) { $0.write(text) }
    }

    /// Appends one line, stamped with the current virtual time, whose text `write` writes in place.
    ///
    /// `write` runs under the trace's lock: it may only format, never record.
    func record(_ category: String, writing write: (inout TraceLineWriter) -> Void) {
        guard enabled else { return }
        let now = clock.now.description
        storage.withLock { storage in
            var writer = TraceLineWriter(bytes: [])
            swap(&writer.bytes, &storage.bytes)
            writer.write("t=")
            writer.write(now)
            writer.write(ascii: " ")
            writer.write(category)
            writer.write(ascii: " ")
            write(&writer)
            swap(&writer.bytes, &storage.bytes)
            storage.ends.append(storage.bytes.count)
        }
    }

    /// Whether lines are kept (the simulation was made with `tracing: true`).
    var isEnabled: Bool { enabled }

    /// Every line so far, in order.
    public var lines: [String] {
        storage.withLock { storage in storage.ends.indices.map { storage.line($0) } }
    }

    /// The number of lines so far.
    public var count: Int { storage.withLock { $0.ends.count } }

    /// The whole trace as text, one line each, ending with a newline.
    public var text: String {
        let lines = self.lines
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// The lines of one category, without their time stamps and category.
    public func events(in category: String) -> [String] {
        let marker = " \(category) "
        return lines.compactMap { line in
            guard let range = line.firstRange(of: marker) else { return nil }
            return String(line[range.upperBound...])
        }
    }
}
