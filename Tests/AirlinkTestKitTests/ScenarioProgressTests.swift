import AirlinkTestKit
import Synchronization
import Testing

/// A progress callback sees the run advance in hundredths of its duration and changes nothing the
/// run does.
@Suite struct ScenarioProgressTests {
    @Test func progressIsReportedInHundredthsAndLeavesTheTraceAsItWas() async throws {
        // Given a shipped scenario with notifications and link losses
        let scenario = try Scenario.load(path: ShippedScenarios.path("notifications-restored.yaml"))

        // When it runs once without a progress callback and once with one
        let plain = try await ScenarioRunner().run(scenario)
        let reported = Mutex<[Duration]>([])
        var runner = ScenarioRunner()
        runner.progress = { reached in reported.withLock { $0.append(reached) } }
        let watched = try await runner.run(scenario)

        // Then the callback saw every hundredth of the 30 s, in order, up to the end
        let steps = reported.withLock { $0 }
        #expect(steps.count == 100)
        #expect(steps.first == .milliseconds(300))
        #expect(steps.last == .seconds(30))
        #expect(steps == steps.sorted())
        // And the run was the same, byte for byte
        #expect(watched.trace.text == plain.trace.text)
        #expect(watched.passed && plain.passed)
    }
}
