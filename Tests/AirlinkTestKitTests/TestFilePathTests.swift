import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Testing

/// A test names its scenario and its golden trace from one base: the directory of its own file.
@Suite struct TestFilePathTests {
    @Test func aScenarioLoadsFromTheCallingFilesDirectory() throws {
        // Given the shipped scenario, two folders up from this file
        // When it is loaded by a path relative to this file
        let scenario = try Scenario.load("../../Simulations/linear-link-loss.yaml")

        // Then it is the shipped one, named after its file
        #expect(scenario.name == "linear-link-loss")
    }

    @Test func aScenarioAndAGoldenTraceResolveFromTheSameDirectory() {
        // Given a test file in a folder that holds neither file
        let testFile = "/nonexistent-airlink-tests/MyAppTests/MyTests.swift"

        // When it loads a scenario and compares a trace by relative paths
        let scenario = #expect(throws: AirlinkError.self) {
            try Scenario.load("Scenarios/link-loss.yaml", filePath: testFile)
        }
        let golden = #expect(throws: AirlinkError.self) {
            try Simulation(seed: 1).trace.assertMatches("Golden/link-loss.trace", filePath: testFile)
        }

        // Then both were looked for beside the test file, not in the working directory
        #expect(scenario?.message.contains("/nonexistent-airlink-tests/MyAppTests/Scenarios/link-loss.yaml") == true)
        #expect(golden?.message.contains("/nonexistent-airlink-tests/MyAppTests/Golden/link-loss.trace") == true)
    }

    @Test func anAbsoluteScenarioPathIsTakenAsItIs() {
        let error = #expect(throws: AirlinkError.self) {
            try Scenario.load("/nonexistent-airlink-tests/x.yaml", filePath: "/elsewhere/MyTests.swift")
        }
        #expect(error?.message.contains("at /nonexistent-airlink-tests/x.yaml") == true)
    }
}
