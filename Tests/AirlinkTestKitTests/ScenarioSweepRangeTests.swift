import AirlinkCore
import AirlinkTestKit
import Testing

/// A sweep's range reaches the edges of `UInt64` without trapping: the largest seed runs, and a range too large to
/// count is refused with a typed error.
@Suite struct ScenarioSweepRangeTests {
    static let scenario = "duration: 1s\nworld:\n  - builtIn: thermostat\n"

    @Test func theLargestSeedAloneRunsOnce() async throws {
        let sweep = try ScenarioSweep(
            scenario: try Scenario.parse(Self.scenario), seeds: UInt64.max...UInt64.max, parallelism: 2)
        let outcome = await sweep.run()
        #expect(outcome.runs == 1)
        #expect(outcome.failures.isEmpty)
    }

    @Test(arguments: [0...UInt64.max, 1...UInt64.max, UInt64(Int.max)...UInt64.max, 0...UInt64(Int.max)])
    func aRangeOfMoreSeedsThanASweepCountsIsRefused(_ seeds: ClosedRange<UInt64>) throws {
        let scenario = try Scenario.parse(Self.scenario)
        let error = #expect(throws: AirlinkError.self) { try ScenarioSweep(scenario: scenario, seeds: seeds) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("sweep a part of the range at a time") == true)
    }

    @Test func theLargestRangeASweepCountsIsAccepted() throws {
        let sweep = try ScenarioSweep(scenario: try Scenario.parse(Self.scenario), seeds: 1...UInt64(Int.max))
        #expect(sweep.seeds.count == Int.max)
    }
}
