import AirlinkSimulation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Compares a simulation's trace with a golden file beside the tests (`Golden/NAME.trace`).
///
/// Re-record with `RECORD_TRACES=1 swift test --filter ...` and review the diff like code. Golden
/// traces are compared within one build configuration (the tests run in debug).
enum GoldenTrace {
    static func assertMatches(
        _ trace: SimulationTrace, _ name: String, filePath: String = #filePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let directory = filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/")
        let path = "\(directory)/Golden/\(name).trace"
        let actual = trace.text
        if let record = getenv("RECORD_TRACES"), String(cString: record) == "1" {
            try write(actual, to: path)
            return
        }
        guard let expected = read(path) else {
            Issue.record("no golden trace at \(path); record it with RECORD_TRACES=1", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "trace differs from \(path)", sourceLocation: sourceLocation)
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ text: String, to path: String) throws {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        mkdir(directory, 0o755)
        guard let file = fopen(path, "w") else { throw GoldenError(path: path) }
        defer { fclose(file) }
        let bytes = Array(text.utf8)
        _ = fwrite(bytes, 1, bytes.count, file)
    }

    struct GoldenError: Error { let path: String }
}
