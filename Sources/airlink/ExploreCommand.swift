import AirlinkCore
import AirlinkTestKit
import ArgumentParser
import Foundation

/// `airlink explore --seeds 1...10000`: random worlds, workloads and faults per seed, judged by oracles.
struct ExploreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Run random fault schedules on the virtual radio and check them against the oracles.",
        discussion: """
            Each seed draws a world, a client workload and faults over time (Docs/DeterministicCI.md, \
            "Exploring"); oracles from the definitions judge the run: liveness, the reconnection strategies' \
            reference models, notifications, terminal events, the ATT bearer. A failing seed is shrunk to a \
            small scenario written to --out, with the commands that reproduce it. Exits 1 when an oracle \
            fails. --replay FILE judges one scenario file with the same oracles.
            """)

    @Option(name: .long, help: "The seeds to run: FIRST...LAST, such as 1...10000.")
    var seeds: String?

    @Option(name: .long, parsing: .unconditional, help: "Runs at once (the number of cores by default).")
    var jobs: Int?

    @Option(name: .long, help: "Run shard K of N of the seeds (a contiguous slice): 2/8.")
    var shard: String?

    @Option(name: .customLong("max-faults"), parsing: .unconditional, help: "The most faults a seed draws (6).")
    var maximumFaults: Int = 6

    @Option(name: .long, help: "Where shrunk failing scenarios are written (a new directory is made).")
    var out: String = Self.defaultOut

    /// Where shrunk failing scenarios go without `--out`: under `.airlink/`, which the repository ignores, so a
    /// sweep run from a checkout leaves no untracked files in it.
    static let defaultOut = ".airlink/explore-failures"

    @Option(
        name: .customLong("shrink-budget"), parsing: .unconditional,
        help: "The most runs shrinking one failure may take (0: do not shrink).")
    var shrinkBudget: Int = 200

    @Flag(name: .customLong("print-plans"), help: "Print each seed's scenario instead of running it.")
    var printPlans = false

    @Flag(
        name: .customLong("print-shard"),
        help: "Print the seeds --shard K/N takes of --seeds, as FIRST...LAST, instead of running them.")
    var printShard = false

    @Option(name: .long, help: "Judge this scenario file with the oracles instead of drawing seeds.")
    var replay: String?

    @Flag(name: .long, help: "Print JSON Lines: each failing seed, then a summary.")
    var json = false

    @Option(
        name: .long, parsing: .unconditional,
        help:
            "The generator version that draws the seeds (\(ExplorerVersion.current.number) by default; 2 still draws).")
    var version: Int = ExplorerVersion.current.number

    /// The most seeds one invocation runs.
    static let maximumSeeds: UInt64 = 10_000_000

    func validate() throws {
        // Checked before the sweep, not when its first failure is to be written, hours later perhaps
        var info = stat()
        if stat(out, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            let what = InputFile.nonRegularKind(info.st_mode) ?? "a regular file"
            throw ValidationError(
                "--out \(out) is \(what): give a directory for the failures (created if missing), such as failures/")
        }
        switch (seeds, replay) {
        case (nil, nil):
            throw ValidationError("pass the seeds to explore, such as --seeds 1...1000, or --replay FILE")
        case (.some, .some):
            throw ValidationError("--seeds and --replay exclude each other: pass one")
        case (nil, .some) where printShard:
            throw ValidationError("--print-shard prints a slice of --seeds: pass --seeds FIRST...LAST, not --replay")
        default: break
        }
        if let seeds {
            guard let range = SimulateCommand.parseSeeds(seeds) else {
                throw ValidationError("--seeds \"\(seeds)\" is not a range: write FIRST...LAST, such as 1...1000")
            }
            guard range.upperBound - range.lowerBound < Self.maximumSeeds else {
                throw ValidationError(
                    "--seeds \(seeds) holds more than \(Self.maximumSeeds) seeds; split it with --shard K/N")
            }
        }
        if let shard, let problem = Self.shardProblem(shard) { throw ValidationError(problem) }
        if let jobs, !(1...SimulateCommand.maximumJobs).contains(jobs) {
            throw ValidationError(
                "--jobs \(jobs): write a number of runs at once from 1 to \(SimulateCommand.maximumJobs)")
        }
        if !(0...100).contains(maximumFaults) {
            throw ValidationError("--max-faults \(maximumFaults): write a number of faults from 0 to 100")
        }
        if !ExplorerVersion.supported.contains(version) {
            throw ValidationError(
                "--version \(version): this build draws versions \(ExplorerVersion.supported.lowerBound) to "
                    + "\(ExplorerVersion.supported.upperBound); run an older seed with a build of its version")
        }
        if !(0...10_000).contains(shrinkBudget) {
            throw ValidationError("--shrink-budget \(shrinkBudget): write a number of runs from 0 to 10000")
        }
    }

    static func parseShard(_ text: String) -> (Int, Int)? {
        if case .success(let shard) = shard(text) { shard } else { nil }
    }

    /// The most slices `--shard K/N` splits the seeds into.
    static let maximumShards = 100_000

    /// What is wrong with `--shard text`, naming the bound it breaks; `nil` for a shard.
    static func shardProblem(_ text: String) -> String? {
        if case .failure(let problem) = shard(text) { problem.message } else { nil }
    }

    /// A refusal of `--shard`, saying what to write.
    struct ShardProblem: Error {
        let message: String
    }

    /// `--shard K/N` as (K, N), or what is wrong with it, naming the bound it breaks.
    static func shard(_ text: String) -> Result<(Int, Int), ShardProblem> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let isInteger = { (part: Substring) in
            let digits = part.hasPrefix("-") ? part.dropFirst() : part
            return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
        }
        guard parts.count == 2, parts.allSatisfy(isInteger) else {
            return .failure(
                ShardProblem(message: "--shard \"\(text)\" is not a shard: write K/N, slice K of N, such as 2/8"))
        }
        guard let n = Int(parts[1]), (1...maximumShards).contains(n) else {
            return .failure(
                ShardProblem(
                    message: "--shard \(text) splits the seeds into \(parts[1]) slices; N is 1 to \(maximumShards)"))
        }
        guard let k = Int(parts[0]), (1...n).contains(k) else {
            return .failure(ShardProblem(message: "--shard \(text) names slice \(parts[0]) of \(n); K is 1 to \(n)"))
        }
        return .success((k, n))
    }

    func run() async throws {
        var generator = ExplorationGenerator(maximumFaults: maximumFaults)
        generator.version = ExplorerVersion(number: version)
        let explorer = Explorer(generator: generator)
        if let replay {
            try await self.replay(replay, explorer)
            return
        }
        guard let seeds, let range = SimulateCommand.parseSeeds(seeds) else { return }
        let (shard, shards) = shard.flatMap(Self.parseShard) ?? (1, 1)
        if printShard {
            // The slice the sweep itself would run: scripts that run seeds elsewhere (Scripts/explore-bluez) take
            // their shard from here, so that there is one formula.
            guard let sweep = ExplorationSweep(explorer: explorer, range: range, shard: shard, of: shards, jobs: 1)
            else {
                throw CommandFailure(
                    "shard \(shard)/\(shards) of \(seeds) holds no seed: use fewer shards than seeds",
                    status: ExitStatus.usage)
            }
            print("\(sweep.seeds.lowerBound)...\(sweep.seeds.upperBound)")
            return
        }
        if printPlans {
            for seed in range { print(explorer.generator.plan(seed: seed).yaml) }
            return
        }
        guard let sweep = ExplorationSweep(explorer: explorer, range: range, shard: shard, of: shards, jobs: jobs)
        else {
            print("shard \(shard)/\(shards) of \(seeds) holds no seed")
            return
        }
        let progress = standardErrorIsTerminal ? SimulationProgress(runs: sweep.seeds.count, verb: "exploring") : nil
        let onRun: (@Sendable (Int) -> Void)? =
            if let progress { { done in progress.show(.seconds(done)) } } else { nil }
        let summary = await sweep.run(progress: onRun)
        try await report(summary, sweep, explorer)
        if !summary.failures.isEmpty { throw ExitCode(ExitStatus.failure) }
    }

    private func report(_ summary: ExplorationSweep.Summary, _ sweep: ExplorationSweep, _ explorer: Explorer)
        async throws
    {
        let options =
            (maximumFaults == 6 ? "" : " --max-faults \(maximumFaults)")
            + (version == ExplorerVersion.current.number ? "" : " --version \(version)")
        var shrunk: [String: String] = [:]
        let generator = "\(explorer.generator.version)"
        for failure in summary.failures {
            let seed = failure.plan.seed
            let reproduce = "airlink explore --seeds \(seed)...\(seed)\(options)"
            var line = ExploreOutput.Failure(
                seed: seed, generator: generator, failures: failure.failures.map(ExploreOutput.Oracle.init),
                reproduce: reproduce)
            defer { if json { emit(Output.jsonLine(line)) } }
            if !json {
                print("seed \(seed) FAILED (\(generator)): reproduce with: \(reproduce)")
                for reason in failure.failures {
                    print("  \(reason)".escapingControlCharacters(keepingNewlines: false))
                }
            }
            let oracle = failure.failures[0].oracle
            guard shrinkBudget > 0, oracle != "run", shrunk[oracle] == nil || summary.failures.count <= 20 else {
                continue
            }
            let result = await ExplorationShrinker(explorer: explorer, budget: shrinkBudget).shrink(
                failure.plan, failing: oracle, failures: failure.failures)
            let reproduction = ExplorationReproduction(seed: seed, oracle: oracle, options: options, shrunk: result)
            let path: String
            do {
                path = try reproduction.write(into: out)
            } catch {
                throw CommandFailure(error.message, status: ExitStatus.unusable)
            }
            shrunk[oracle] = path
            line.shrunk = path
            if !json { print("  shrunk in \(result.runs) run(s) to \(path): airlink explore --replay \(path)") }
        }
        if json {
            emit(ExploreOutput.summary(summary, sweep, generator: generator))
            return
        }
        print(
            "explored \(summary.runs) seed(s) \(sweep.seeds.lowerBound)...\(sweep.seeds.upperBound) "
                + "(\(explorer.generator.version)), "
                + "\(summary.virtualTime.components.seconds / 60) virtual minute(s)")
        print(
            "faults: "
                + (summary.faults.isEmpty
                    ? "none" : summary.faults.map { "\($0.kind) \($0.count)" }.joined(separator: ", ")))
        print(
            "oracle failures: "
                + (summary.failuresByOracle.isEmpty
                    ? "none" : summary.failuresByOracle.map { "\($0.oracle) \($0.count)" }.joined(separator: ", ")))
        if let slowest = summary.slowest {
            print(
                "slowest seed: \(slowest.seed) "
                    + "(\(slowest.time.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow))) real)"
            )
        }
        print(summary.failures.isEmpty ? "PASSED" : "FAILED: \(summary.failures.count) seed(s)")
    }

    private func replay(_ file: String, _ explorer: Explorer) async throws {
        let failures: [OracleFailure]
        do {
            failures = try await explorer.judge(Scenario.load(path: file))
        } catch {
            throw CommandFailure(error.message, status: ExitStatus.unusable)
        }
        if json {
            emit(
                Output.jsonLine(
                    ExploreOutput.Replay(
                        file: file, failures: failures.map(ExploreOutput.Oracle.init), passed: failures.isEmpty)))
            if !failures.isEmpty { throw ExitCode(ExitStatus.failure) }
            return
        }
        for failure in failures { print("FAIL \(failure)".escapingControlCharacters(keepingNewlines: false)) }
        print(failures.isEmpty ? "\(file): every oracle held" : "\(file): \(failures.count) oracle failure(s)")
        if !failures.isEmpty { throw ExitCode(ExitStatus.failure) }
    }
}
