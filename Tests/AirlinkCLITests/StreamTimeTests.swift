import Foundation
import Testing

/// The times at the start of `observe` and `inspect --demo` lines are printed as every other time: to the
/// microsecond, with no trailing zeros, the same digits in text and in JSON.
@Suite struct StreamTimeTests {
    /// The times of the stamped lines, `[  1.617024s] ...` → `1.617024s`.
    static func stamps(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("[") }.map {
            String($0.prefix { $0 != "]" }.dropFirst()).trimmingCharacters(in: .whitespaces)
        }
    }

    /// The `time` of each JSON line, as written: `"time":1.617024` → `1.617024s`.
    static func jsonTimes(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "\"time\":") else { return nil }
            return String(line[range.upperBound...].prefix { $0.isNumber || $0 == "." }) + "s"
        }
    }

    @Test(arguments: [["inspect", "--demo"], ["observe", "Test Server", "--demo", "--duration", "3s"]])
    func streamLinesAreStampedToTheMicrosecond(_ command: [String]) async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When the demo runs in text and in JSON
        let text = try await cli.run(command)
        let json = try await cli.run(command + ["--json"])

        // Then the stamps carry the microseconds (the link's times are not whole milliseconds), and JSON has the
        // same times with the same digits
        #expect(text.status == 0 && json.status == 0, "\(text)\n\(json)")
        let stamps = Self.stamps(text.stdout)
        #expect(stamps.count >= 3, "\(text)")
        #expect(stamps.contains { ($0.split(separator: ".").last?.count ?? 0) > "617s".count }, "\(stamps)")
        #expect(Self.jsonTimes(json.stdout).filter { stamps.contains($0) }.count >= 3, "\(json)")
        for stamp in stamps { #expect(stamp.hasSuffix("s") && !stamp.hasSuffix("0s") || stamp == "0s", "\(stamp)") }
    }
}
