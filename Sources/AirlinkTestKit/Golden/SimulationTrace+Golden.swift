import AirlinkCore
import AirlinkSimulation
import Foundation

extension SimulationTrace {
    /// Compares the trace with a golden file; with `RECORD_TRACES=1` in the environment, writes it instead.
    ///
    /// A relative `path` is taken from the directory of the calling file, so a test writes
    /// `try result.trace.assertMatches("Golden/reconnect.trace")`. Review re-recorded traces like code.
    ///
    /// - Parameters:
    ///   - path: the golden trace.
    ///   - filePath: the calling file (filled in by the compiler).
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` with a readable diff when the trace differs, or
    ///   when there is no golden file (saying how to record it).
    public func assertMatches(_ path: String, filePath: String = #filePath) throws(AirlinkError) {
        let resolved = path.hasPrefix("/") ? path : (filePath as NSString).deletingLastPathComponent + "/" + path
        let record = ProcessInfo.processInfo.environment["RECORD_TRACES"] == "1"
        try GoldenTraceFile(path: resolved).check(text, record: record)
    }
}

/// A golden trace file: compared with a new trace, or rewritten.
public struct GoldenTraceFile: Sendable {
    /// The file's path.
    public var path: String

    /// A golden trace at `path`.
    public init(path: String) { self.path = path }

    /// The golden text, or `nil` when there is no file.
    public var text: String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// Writes the golden text.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` when it cannot be written.
    public func write(_ text: String) throws(AirlinkError) {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw AirlinkError(.invalidArgument, "cannot write the golden trace \(path): \(error)")
        }
    }

    /// Compares `actual` with the file, or records it.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` with the diff when they differ.
    public func check(_ actual: String, record: Bool) throws(AirlinkError) {
        if record {
            try write(actual)
            return
        }
        guard let expected = text else {
            throw AirlinkError(
                .invalidArgument, "no golden trace at \(path); record it with RECORD_TRACES=1 (tests) or --record (CLI)"
            )
        }
        if let diff = TraceDiff.diff(expected: expected, actual: actual) {
            throw AirlinkError(
                .invalidArgument,
                "the trace differs from \(path) (- golden, + this run); if the change is intended, re-record it "
                    + "with RECORD_TRACES=1 or --record and review the diff\n\(diff)")
        }
    }
}
