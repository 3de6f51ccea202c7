import AirlinkCore
import AirlinkTestKit
import ArgumentParser

/// `airlink simulate FILE`: runs a scenario in virtual time, checks its expectations and its golden trace.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a scenario (Simulations/*.yaml) in virtual time and check it.",
        discussion: """
            Prints what happened and which expectations held. Exits non-zero when an expectation or a \
            built-in invariant fails, or when the trace differs from the golden trace beside the file \
            (FILE with .trace instead of .yaml); --record rewrites it. --seeds 1...1000 sweeps many seeds \
            on all cores and prints the failing ones with the command that reproduces each.
            """)

    @Argument(help: "The scenario file (YAML).")
    var file: String

    @Option(name: .long, parsing: .unconditional, help: "Run with this seed instead of the scenario's.")
    var seed: UInt64?

    @Option(name: .long, help: "Sweep seeds: 1...1000 (each its own simulation, in parallel).")
    var seeds: String?

    @Option(name: .long, help: "Write the trace to this file.")
    var trace: String?

    @Option(name: .long, help: "Write the simulated traffic as a btsnoop file (Wireshark, tshark).")
    var capture: String?

    @Option(name: .long, help: "Write an HTML page with the run's timeline (self-contained, no scripts).")
    var report: String?

    @Flag(name: .long, help: "Rewrite the golden trace beside the scenario.")
    var record = false

    @Flag(name: .long, help: "Print JSON Lines: each event, each expectation, then the result.")
    var json = false

    @Option(
        name: .long, parsing: .unconditional,
        help: "Runs at once in a sweep (the number of cores by default, at most 256)."
    )
    var jobs: Int?

    func validate() throws {
        if let seeds {
            guard let range = Self.parseSeeds(seeds) else {
                throw ValidationError("--seeds \"\(seeds)\" is not a range: write FIRST...LAST, such as 1...1000")
            }
            guard range.upperBound - range.lowerBound < Self.maximumSeeds else {
                throw ValidationError(
                    "--seeds \(seeds) sweeps more than \(Self.maximumSeeds) seeds; sweep at most that many at once, "
                        + "such as 1...\(Self.maximumSeeds)")
            }
            if seed != nil { throw ValidationError("--seed and --seeds exclude each other: pass one") }
            if record { throw ValidationError("--record rewrites one seed's trace: drop --seeds, or pass --seed N") }
            if trace != nil || capture != nil || report != nil {
                throw ValidationError("--trace and --capture write one run's files: use --seed N instead of --seeds")
            }
        }
        if let jobs, !(1...Self.maximumJobs).contains(jobs) {
            throw ValidationError("--jobs \(jobs): write a number of runs at once from 1 to \(Self.maximumJobs)")
        }
    }

    /// The most seeds one sweep runs.
    static let maximumSeeds: UInt64 = 100_000
    /// The most runs at once in a sweep.
    static let maximumJobs = 256

    static func parseSeeds(_ text: String) -> ClosedRange<UInt64>? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: true)
        guard text.contains("..."), parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]),
            low <= high
        else { return nil }
        return low...high
    }

    func run() async throws {
        if DeviceRecording.isRecording(path: file) {
            try Self.fail(
                "\(file) is a recording (made with `airlink record`), not a scenario: replay it with "
                    + "`--transport sim:\(file)` (`airlink scan --transport sim:\(file)`), or name it in a scenario's "
                    + "world as `recorded: \(file)`")
        }
        let scenario: Scenario
        do {
            scenario = try Scenario.load(path: file)
        } catch {
            try Self.fail(error.message)
        }
        if let seeds, let range = Self.parseSeeds(seeds) {
            try await sweep(scenario, range)
            return
        }
        let result: ScenarioResult
        do {
            var runner = ScenarioRunner()
            if standardErrorIsTerminal { runner.progress = SimulationProgress(total: scenario.duration.duration).show }
            result = try await runner.run(scenario, seed: seed)
        } catch {
            try Self.fail("\(file): \(error.message)")
        }
        var line = SimulateOutput.result(result)
        if json {
            for text in SimulateOutput.lines(result) { emit(text) }
        } else {
            print(result.summary.escapingControlCharacters(keepingNewlines: true))
        }
        var failed = !result.passed
        if let trace {
            do { try GoldenTraceFile(path: trace).write(result.trace.text) } catch { try Self.fail(error.message) }
        }
        if let report {
            do {
                try BinaryFile.write(Array(TimelineReport(result: result).html.utf8), to: report, kind: "report")
            } catch {
                try Self.fail(error.message)
            }
            if json { line.report = report } else { print("report: \(report)") }
        }
        if let capture {
            let file = result.capture
            do { try BinaryFile.write(file.bytes, to: capture, kind: "capture") } catch { try Self.fail(error.message) }
            let written = "\(file.packetCount) packet(s), \(file.attPDUCount) ATT PDU(s) written to \(capture)"
            if json { line.capture = written } else { print("capture: \(written)") }
        }
        let golden = GoldenTraceFile(path: Self.goldenPath(for: file))
        let verdict: String
        if seed == nil || seed == scenario.seed || record {
            do {
                try golden.check(result.trace.text, record: record)
                line.golden = record ? "recorded: \(golden.path)" : "matches: \(golden.path)"
                verdict = record ? "golden trace recorded: \(golden.path)" : "golden trace: matches \(golden.path)"
            } catch {
                line.golden = "differs: \(error.message)"
                verdict = "golden trace: \(error.message)"
                failed = true
            }
        } else {
            line.golden = "not compared (it was recorded with seed \(scenario.seed))"
            verdict = "golden trace: \(line.golden ?? "")"
        }
        line.passed = !failed
        emit(json ? Output.jsonLine(line) : verdict)
        if failed { throw ExitCode(ExitStatus.failure) }
    }

    private func sweep(_ scenario: Scenario, _ range: ClosedRange<UInt64>) async throws {
        let outcome = try await ScenarioSweep(scenario: scenario, seeds: range, parallelism: jobs).run()
        for failure in outcome.failures {
            let reproduce = "airlink simulate \(file) --seed \(failure.seed)"
            if json {
                emit(
                    Output.jsonLine(
                        SimulateOutput.Failure(seed: failure.seed, reasons: failure.reasons, reproduce: reproduce)))
                continue
            }
            print("seed \(failure.seed) FAILED: reproduce with: \(reproduce)")
            for reason in failure.reasons { print("  \(reason)") }
        }
        if json {
            emit(Output.jsonLine(SimulateOutput.Sweep(runs: outcome.runs, failed: outcome.failures.count)))
            if !outcome.failures.isEmpty { throw ExitCode(ExitStatus.failure) }
            return
        }
        let times = [50.0, 95.0, 100.0].map { outcome.reconnectTime(percentile: $0)?.formatted ?? "-" }
        print(
            "\(outcome.runs) seed(s), \(outcome.failures.count) failed; time to reconnect over "
                + "\(outcome.reconnectTimes.count) reconnection(s): median \(times[0]), "
                + "p95 \(times[1]), max \(times[2])"
        )
        if !outcome.failures.isEmpty { throw ExitCode(ExitStatus.failure) }
    }

    static func goldenPath(for file: String) -> String {
        (file.hasSuffix(".yaml") ? String(file.dropLast(5)) : file) + ".trace"
    }

    /// Ends with `message` and exit code 2 (the scenario could not run, or a file could not be written).
    static func fail(_ message: String) throws -> Never {
        throw CommandFailure(message, status: ExitStatus.unusable)
    }
}

extension Duration {
    /// `2.345678s`.
    fileprivate var formatted: String {
        let (seconds, attoseconds) = components
        let micro = attoseconds / 1_000_000_000_000
        let fraction =
            String(micro).count < 6
            ? String(repeating: "0", count: 6 - String(micro).count) + String(micro) : String(micro)
        return "\(seconds).\(fraction)s"
    }
}
