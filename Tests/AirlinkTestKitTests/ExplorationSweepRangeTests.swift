import AirlinkTestKit
import Testing

/// A sweep's shards cover the range exactly, once each, whatever the range: up to the largest seed, and the
/// whole of UInt64, without overflow.
@Suite struct ExplorationSweepRangeTests {
    private let explorer = Explorer(generator: ExplorationGenerator(maximumFaults: 0))

    @Test(arguments: [
        UInt64.max...UInt64.max, (UInt64.max - 9)...UInt64.max, (UInt64.max - 1)...UInt64.max, 0...UInt64.max,
        1...UInt64.max, 0...0, 1...1000,
    ])
    func shardsTileTheRange(_ range: ClosedRange<UInt64>) {
        for shards in [1, 2, 3, 7, 100_000] {
            // Given a range cut into `shards` shards
            // When each shard's sweep is made
            let sweeps = (1...shards).compactMap {
                ExplorationSweep(explorer: explorer, range: range, shard: $0, of: shards, jobs: 1)
            }

            // Then the shards follow each other with no gap and no overlap, from the first seed to the last
            #expect(sweeps.first?.seeds.lowerBound == range.lowerBound, "\(range) in \(shards)")
            #expect(sweeps.last?.seeds.upperBound == range.upperBound, "\(range) in \(shards)")
            for (before, after) in zip(sweeps, sweeps.dropFirst()) {
                #expect(before.seeds.upperBound < range.upperBound, "\(range) in \(shards)")
                #expect(after.seeds.lowerBound == before.seeds.upperBound &+ 1, "\(range) in \(shards)")
            }
        }
    }

    @Test func theLargestSeedRuns() async {
        // Given a sweep of the largest seed alone
        let sweep = ExplorationSweep(explorer: explorer, range: UInt64.max...UInt64.max, jobs: 2)

        // When it runs
        let summary = await sweep?.run()

        // Then it ran that one seed
        #expect(sweep?.seeds == UInt64.max...UInt64.max)
        #expect(summary?.runs == 1)
    }
}
