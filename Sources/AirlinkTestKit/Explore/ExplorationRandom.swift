import AirlinkSimulation

/// The generator's draws, from the simulation's seeded source (never the system's, never a set's order).
package struct ExplorationRandom {
    private let source: SeededRandomSource

    /// Draws from `seed`, mixed so that a plan's draws differ from its run's (which uses the seed itself).
    package init(seed: UInt64) { source = SeededRandomSource(seed: seed ^ 0x4558_504C_4F52_4552) }

    /// A number in `range`, uniformly.
    package mutating func int(_ range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(source.next() % width)
    }

    /// True with probability `percent` / 100.
    package mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    /// One of `choices` (not empty).
    package mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...(choices.count - 1))] }

    /// A duration of whole milliseconds in `range`.
    package mutating func milliseconds(_ range: ClosedRange<Int>) -> Duration { .milliseconds(int(range)) }

    /// `count` random bytes.
    package mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: source.next()) }
    }
}
