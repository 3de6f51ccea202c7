import AirlinkTestKit
import Testing

/// The regression scenarios in `Simulations/regressions/`: each file is named for the behaviour it pins and says in
/// its `expect:` what must hold (often `oracle: NAME`, the explorer's oracle that once judged such a run wrongly, or
/// caught the defect).
@Suite struct RegressionScenarioTests {
    @Test(arguments: ShippedScenarios.regressions)
    func regressionScenarioHolds(_ name: String) async throws {
        // Given a regression scenario that states what it pins
        let scenario = try Scenario.load(path: ShippedScenarios.path("regressions/" + name))
        #expect(!scenario.expect.isEmpty, "\(name) has no expect: section, so it pins nothing")

        // When it runs
        let result = try await ScenarioRunner().run(scenario)

        // Then its expectations and the built-in invariants hold
        #expect(result.passed, "\(result.summary)")
    }

    @Test func theRegressionFolderIsRead() {
        #expect(ShippedScenarios.regressions.count >= 20, "\(ShippedScenarios.directory)/regressions")
    }
}
