import AirlinkCore
import Foundation

/// A shrunk failure as a scenario file: comments saying what failed and how to reproduce it, then the plan.
public struct ExplorationReproduction: Sendable {
    /// The seed that failed.
    public var seed: UInt64
    /// The oracle it failed.
    public var oracle: String
    /// The generator's options that differ from the defaults, as CLI arguments (` --max-faults 3`).
    public var options: String
    /// What shrinking gave.
    public var shrunk: ExplorationShrinker.Result

    /// Creates a reproduction of a shrunk failure.
    public init(seed: UInt64, oracle: String, options: String, shrunk: ExplorationShrinker.Result) {
        self.seed = seed
        self.oracle = oracle
        self.options = options
        self.shrunk = shrunk
    }

    /// `explore-42-liveness.yaml`.
    public var fileName: String { "explore-\(seed)-\(oracle).yaml" }

    /// The file's text, for a file at `path`.
    public func text(path: String) -> String {
        let reseed = "airlink explore --seeds \(seed)...\(seed)\(options)"
        var lines = [
            "# The explorer's seed \(seed) (\(shrunk.plan.version)) failed the \(oracle) oracle; shrunk in "
                + "\(shrunk.runs) run(s).",
            "# Reproduce: airlink explore --replay \(path)",
            "# The whole seed: \(reseed); the run's trace: airlink simulate \(path) --report report.html",
        ]
        lines += shrunk.failures.prefix(5).map { "# \($0)".filter { $0 != "\n" && $0 != "\r" } }
        return lines.joined(separator: "\n") + "\n" + shrunk.plan.yaml
    }

    /// Writes the file into `directory` (created if missing); returns its path.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` when the directory or file cannot be written.
    public func write(into directory: String) throws(AirlinkError) -> String {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw AirlinkError(.invalidArgument, "cannot create the directory \(directory): \(error)")
        }
        let path = "\(directory)/\(fileName)"
        try BinaryFile.write(Array(text(path: path).utf8), to: path)
        return path
    }
}
