import AirlinkCore
import AirlinkTestSupport
import Foundation
import Testing

@testable import AirlinkSimulation

/// The same seed gives a byte-identical trace, run after run and process after process.
@Suite struct DeterminismTests {
    /// Runs the reference workload for one virtual hour and returns its trace.
    static func traceOfOneHour(seed: UInt64) async throws -> String {
        let sim = Simulation(seed: seed, strict: true)
        let outcome = try await BackOffWorkload.run(in: sim, for: .seconds(3600))
        sim.trace.record("summary", "attempts=\(outcome.attempts) connected=\(outcome.connected)")
        return sim.trace.text
    }

    @Test func oneSeedRunAHundredTimesGivesOneTrace() async throws {
        // Given the trace of one seeded run
        let reference = try await Self.traceOfOneHour(seed: 7)
        #expect(reference.count > 10_000, "the workload should produce a substantial trace")

        // When the same seed runs a hundred times more
        var distinct: Set<String> = [reference]
        for _ in 0..<100 { distinct.insert(try await Self.traceOfOneHour(seed: 7)) }

        // Then every run gave the same bytes
        #expect(distinct.count == 1)
    }

    @Test func differentSeedsGiveDifferentValidRuns() async throws {
        let a = try await Self.traceOfOneHour(seed: 1)
        let b = try await Self.traceOfOneHour(seed: 2)
        #expect(a != b)
        // Both are valid: observers saw every attempt in order, each twice.
        for trace in [a, b] {
            let observed = trace.split(separator: "\n").filter { $0.contains(" observer a ") }
            let attempts = observed.compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("attempt=") }.flatMap { Int($0.dropFirst(8)) }
            }
            #expect(attempts == Array(1...attempts.count))
        }
    }

    @Test func separateProcessesGiveTheSameTrace() async throws {
        // Given this test binary, which can run the probe below on its own
        let binary = URL(fileURLWithPath: CommandLine.arguments[0])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "airlink-determinism-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // When five processes each run seed 7 and write their trace
        var traces: [String] = []
        for index in 0..<5 {
            let output = directory.appendingPathComponent("trace-\(index).txt")
            let process = Process()
            process.executableURL = binary
            process.arguments = ["--testing-library", "swift-testing", "--filter", "DeterminismProbe"]
            var environment = ProcessInfo.processInfo.environment
            environment["AIRLINK_PROBE_OUTPUT"] = output.path
            environment["AIRLINK_PROBE_SEED"] = "7"
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let status = try await offThePool {
                try process.run()
                process.waitUntilExit()
                return process.terminationStatus
            }
            #expect(status == 0)
            traces.append(try String(contentsOf: output, encoding: .utf8))
        }

        // Then they wrote the same bytes, which are also this process's trace of the seed
        let local = try await Self.traceOfOneHour(seed: 7)
        #expect(Set(traces).count == 1)
        #expect(traces.first == local)
    }
}

/// Run in a child process by `separateProcessesGiveTheSameTrace`: writes the trace of a seed to a file.
///
/// Outside that test (no `AIRLINK_PROBE_OUTPUT`) it checks that two runs in this process agree.
@Suite struct DeterminismProbe {
    @Test func writeTraceOfSeed() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["AIRLINK_PROBE_SEED"].flatMap { UInt64($0) } ?? 11
        let trace = try await DeterminismTests.traceOfOneHour(seed: seed)
        if let path = environment["AIRLINK_PROBE_OUTPUT"] {
            try trace.write(toFile: path, atomically: true, encoding: .utf8)
        } else {
            #expect(try await DeterminismTests.traceOfOneHour(seed: seed) == trace)
        }
    }
}
