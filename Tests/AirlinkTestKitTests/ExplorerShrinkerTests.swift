import Airlink
import AirlinkCore
import Foundation
import Testing

@testable import AirlinkTestKit

/// A planted oracle: fails every run in which a link was lost.
private struct NoLossOracle: ExplorationOracle {
    var name: String { "planted" }
    func violations(in observation: ExplorationObservation) -> [String] {
        observation.events.compactMap { record in
            guard case .connection(let device, .lost) = record.event else { return nil }
            return "\(device) lost its link at t=\(record.time)"
        }
    }
}

@Suite struct ExplorerShrinkerTests {
    @Test func aPlantedFailureShrinksToOnePeripheralAndOneFault() async throws {
        // Given the first seed (of several peripherals and faults) that fails the planted oracle
        let explorer = Explorer(generator: ExplorationGenerator(maximumFaults: 6), oracles: [NoLossOracle()])
        var failing: Explorer.Outcome?
        for seed: UInt64 in 1...60 {
            let plan = explorer.generator.plan(seed: seed)
            guard plan.peripherals.count > 1, plan.faults.count > 2 else { continue }
            let outcome = await explorer.run(plan)
            if !outcome.passed {
                failing = outcome
                break
            }
        }
        let outcome = try #require(failing)

        // When it is shrunk
        let shrunk = await ExplorationShrinker(explorer: explorer, budget: 150).shrink(
            outcome.plan, failing: "planted", failures: outcome.failures)

        // Then the small plan still fails the oracle, with one client, one peripheral and one fault
        #expect(!shrunk.failures.isEmpty)
        #expect(shrunk.plan.clients.count == 1 && shrunk.plan.peripherals.count == 1)
        #expect(shrunk.plan.faults.count == 1, "\(shrunk.plan.yaml)")
        #expect(shrunk.plan.yaml.split(separator: "\n").count < outcome.plan.yaml.split(separator: "\n").count)
        let rerun = await explorer.run(shrunk.plan)
        #expect(rerun.failures.contains { $0.oracle == "planted" })

        // And its file reproduces it: it parses back as the same scenario
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UUID())").path
        let path = try ExplorationReproduction(seed: outcome.plan.seed, oracle: "planted", options: "", shrunk: shrunk)
            .write(into: directory)
        let failures = try await explorer.judge(Scenario.load(path: path))
        #expect(failures.contains { $0.oracle == "planted" })
        try? FileManager.default.removeItem(atPath: directory)
    }
}
