import AirlinkCore
import AirlinkTestKit
import Testing

@Suite struct ScenarioTests {
    @Test func linearLinkLoss() async throws {
        let scenario = try Scenario.load(path: ShippedScenarios.path("linear-link-loss.yaml"))
        let result = try await ScenarioRunner().run(scenario)
        print(result.summary)
        print(result.trace.text)
        #expect(result.passed)
    }
}
