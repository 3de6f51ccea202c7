import Airlink
import AirlinkCore
import AirlinkTestKit
import Testing

// The example of Docs/Scenarios.md, "Your own code against a scenario": keep them in step.
@Suite struct UserCodeExample {
    @Test func myReconnectionLogicSurvivesALinkLoss() async throws {
        // Given the shipped link-loss scenario's world and timeline, found from this file as a golden trace is
        let scenario = try Scenario.load("../../Simulations/linear-link-loss.yaml")

        // When my own code, not the scenario's client section, runs against it
        let result = try await ScenarioRunner().run(scenario) { context in
            let connection = context.manager.connection(
                to: "C0:FF:EE:00:00:01", reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
            do throws(AirlinkError) {
                try await connection.connect(timeout: .seconds(5))
                context.log("my app connected")
            } catch {
                context.log("my app failed to connect: \(error.code)")
            }
        }

        // Then the scenario's expectations hold for my code, and the trace shows what it did
        let failed = result.expectations.filter { !$0.held }.map { $0.description }
        #expect(failed == ["notificationsRestored by 17s"])  // my code does not subscribe
        #expect(result.trace.events(in: "client") == ["my app connected"])
        #expect(
            result.trace.records.contains { record in
                guard case .layer(.event(.connection(_, .reconnected(let link)))) = record.event else { return false }
                return link.mtu == 247
            })
        try result.trace.assertMatches("Golden/my-link-loss.trace")  // beside this file
    }
}
