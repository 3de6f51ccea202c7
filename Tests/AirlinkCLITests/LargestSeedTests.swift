import Foundation
import Testing

/// A range that ends at the largest seed runs like any other: `explore` with or without `--shard` and `--json`
/// ends by itself, never in a signal, and says which seeds it explored.
@Suite struct LargestSeedTests {
    static let largest = "18446744073709551615"

    @Test(arguments: [
        ["--seeds", "\(largest)...\(largest)"],
        ["--seeds", "\(largest)...\(largest)", "--json"],
        ["--seeds", "\(largest)...\(largest)", "--shard", "1/1"],
        ["--seeds", "18446744073709551614...\(largest)", "--shard", "2/2", "--json"],
        ["--seeds", "18446744073709551613...\(largest)", "--shard", "3/3"],
    ])
    func exploreRunsTheLargestSeed(_ arguments: [String]) async throws {
        // Given the CLI
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When a range ending at the largest seed is explored
        let result = try await cli.start(["explore", "--jobs", "1", "--max-faults", "0"] + arguments, environment: [:])
            .wait(upTo: .seconds(120))

        // Then it ends by itself, with the sweep's verdict, and names the largest seed as the last it ran
        #expect(!result.timedOut, "\(result)")
        #expect(!result.signalled, "\(result)")
        #expect([0, 1].contains(result.status), "\(result)")
        #expect(result.stdout.contains(Self.largest), "\(result)")
    }
}
