import AirlinkCore
import AirlinkProfiles
import AirlinkTestKit
import Testing
import ThermostatKit

/// The monitor as the client of a scenario file, its trace compared with a golden trace.
///
/// The scenario and the golden trace sit beside this file (excluded from the target in Package.swift), and both
/// `Scenario.load(_:)` and `assertMatches(_:)` take a relative path from this file's directory, so the tests work
/// wherever the package is copied and whatever the working directory. Re-record the golden trace with
/// `RECORD_TRACES=1 swift test --filter ScenarioTests` and review it like code.
@Suite struct ScenarioTests {
    @Test func theMonitorSurvivesTheLinkLossScenario() async throws {
        let scenario = try Scenario.load("Scenarios/thermostat-link-loss.yaml")  // beside this file
        let result = try await ScenarioRunner().run(scenario) { context in
            // Each reading is reported to the scenario, for its `value` expectations
            let monitor = ThermostatMonitor(manager: context.manager, environment: context.environment) {
                guard case .reading(let reading) = $0.kind else { return }
                context.observed(
                    reading.temperature.gattBytes, of: .thermostatTemperature, in: .thermostatTemperatureService,
                    on: "C0:FF:EE:00:00:01")
            }
            do throws(AirlinkError) {
                try await monitor.monitor(for: .seconds(55))
                let last = monitor.readings.last.map { "\($0)" } ?? "none"
                context.log("monitor saw \(monitor.readings.count) readings, the last \(last)")
            } catch {
                context.log("monitor failed: \(error)")
            }
        }
        #expect(result.passed, "\(result.summary)")
        // The monitor's readings went on after both reconnections: 15.1, 15.2, ... with gaps only while lost
        #expect(result.trace.events(in: "client").last?.hasPrefix("monitor saw") == true)
        try result.trace.assertMatches("Golden/thermostat-link-loss.trace")  // beside this file too
    }
}
