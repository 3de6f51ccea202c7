import AirlinkCore
import Synchronization

/// The trace of a simulation: one line per event, stamped with virtual time.
///
/// Lines read `t=12.345678 category text`. Nothing in them depends on the wall clock, on memory
/// addresses or on hash order, so the same seed gives a byte-identical trace in every run and every
/// process; golden files compare them as text.
public final class SimulationTrace: TraceSink, @unchecked Sendable {
    // @unchecked: `lines` is behind its Mutex; `clock` is immutable and Sendable.
    private let clock: any ClockBackend
    private let storage = Mutex<[String]>([])
    private let enabled: Bool

    init(clock: any ClockBackend, enabled: Bool) {
        self.clock = clock
        self.enabled = enabled
    }

    /// Appends one line, stamped with the current virtual time.
    public func record(_ category: String, _ text: @autoclosure () -> String) {
        guard enabled else { return }
        let line = "t=\(clock.now) \(category) \(text())"
        storage.withLock { $0.append(line) }
    }

    /// Every line so far, in order.
    public var lines: [String] { storage.withLock { $0 } }

    /// The number of lines so far.
    public var count: Int { storage.withLock { $0.count } }

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
