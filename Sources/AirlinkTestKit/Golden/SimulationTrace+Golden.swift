import AirlinkCore
import AirlinkSimulation
import Foundation

extension SimulationTrace {
    /// Compares the trace with a golden file; with `RECORD_TRACES=1` in the environment, writes it instead.
    ///
    /// A relative `path` is taken from the directory of the calling file, so a test writes
    /// `try result.trace.assertMatches("Golden/reconnect.trace")`, as it loads its scenario with
    /// ``Scenario/load(_:filePath:)``. Review re-recorded traces like code.
    ///
    /// - Parameters:
    ///   - path: the golden trace.
    ///   - filePath: the calling file (filled in by the compiler).
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` with a readable diff when the trace differs, or
    ///   when there is no golden file (saying how to record it).
    public func assertMatches(_ path: String, filePath: String = #filePath) throws(AirlinkError) {
        let resolved = Scenario.resolve(path, besideFile: filePath)
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

    /// The largest golden trace read, in bytes (64 MiB).
    public static let maximumFileSize = 64 << 20

    /// The golden text, or `nil` when there is no file or it cannot be read (``read()`` says why).
    public var text: String? { try? read() }  // the reason is dropped on purpose: `read()` is the way to have it

    /// The golden text, or `nil` when there is no file.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` when the path is a FIFO, a directory or a
    ///   device (refused without blocking), the file is over ``maximumFileSize`` or not UTF-8.
    public func read() throws(AirlinkError) -> String? {
        guard
            let bytes = try InputFile.read(
                path, kind: "golden trace", maximumSize: Self.maximumFileSize, advice: "such as Simulations/x.trace")
        else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw AirlinkError(
                .invalidArgument, "the golden trace \(path.escapingControlCharacters()) is not UTF-8 text",
                context: path)
        }
        return text
    }

    /// Writes the golden text.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` when it cannot be written.
    public func write(_ text: String) throws(AirlinkError) {
        try OutputFile.write(Array(text.utf8), to: path, kind: "golden trace")
    }

    /// Compares `actual` with the file, or records it.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` with the diff when they differ.
    public func check(_ actual: String, record: Bool) throws(AirlinkError) {
        if record {
            try write(actual)
            return
        }
        guard let expected = try read() else {
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
