import Airlink
import AirlinkCore
import AirlinkTestKit
import Testing

@Suite struct ShippedScenarioTests {
    @Test(arguments: ShippedScenarios.all)
    func shippedScenarioHoldsAndMatchesItsGoldenTrace(_ name: String) async throws {
        // Given a shipped scenario
        let scenario = try Scenario.load(path: ShippedScenarios.path(name))

        // When it runs with its own seed
        let result = try await ScenarioRunner().run(scenario)

        // Then its expectations and invariants hold and its trace is the golden one
        #expect(result.passed, "\(result.summary)")
        try result.trace.assertMatches(ShippedScenarios.path(name.replacingOccurrences(of: ".yaml", with: ".trace")))
    }

    @Test func aSeedReproducesItsTraceAndAnotherSeedChangesTheWaits() async throws {
        // Given the exponential back-off scenario, whose waits are drawn from the seeded source
        let scenario = try Scenario.load(path: ShippedScenarios.path("exponential-jitter.yaml"))

        // When it runs twice with one seed and once with another
        let first = try await ScenarioRunner().run(scenario, seed: 42)
        let again = try await ScenarioRunner().run(scenario, seed: 42)
        let other = try await ScenarioRunner().run(scenario, seed: 43)

        // Then the same seed gives the same trace, and another seed other waits
        #expect(first.trace.text == again.trace.text)
        #expect(first.trace.text != other.trace.text)
    }
}

@Suite struct ScenarioExpectationTests {
    @Test func anExpectationThatDoesNotHoldFailsWithItsReason() async throws {
        // Given a device gone for good, and a scenario that expects a reconnection anyway
        let yaml = """
            duration: 40s
            world:
              - builtIn: thermostat
            timeline:
              - {at: 10s, do: moveOutOfRange, device: Thermostat}
            client:
              - device: Thermostat
                reconnection: {linear: {wait: 2s, attempts: 3, timeout: 3s}}
            expect:
              - event: reconnected
                by: 30s
              - gaveUpAfter: 2
            """
        let scenario = try Scenario.parse(yaml)

        // When it runs
        let result = try await ScenarioRunner().run(scenario)

        // Then both expectations fail, saying what was observed
        #expect(!result.passed)
        #expect(result.expectations.map(\.held) == [false, false])
        #expect(result.expectations[0].reason.contains("0 reconnected event(s)"))
        #expect(result.expectations[1].reason.contains("after 3 attempt(s) (expected 2)"))
    }

    @Test func aChangedBehaviourShowsAsAReadableTraceDiff() {
        // Given a golden trace and a run where the reconnection came later
        let golden = "t=1.0 event a connected\nt=2.0 event a lost\nt=4.0 event a reconnected\n"
        let actual = "t=1.0 event a connected\nt=2.0 event a lost\nt=6.0 event a reconnected\n"

        // When they are compared
        let diff = TraceDiff.diff(expected: golden, actual: actual)

        // Then the diff shows the golden line removed and the new one added, with context
        #expect(diff?.contains("- t=4.0 event a reconnected") == true)
        #expect(diff?.contains("+ t=6.0 event a reconnected") == true)
        #expect(diff?.contains("  t=2.0 event a lost") == true)
        #expect(TraceDiff.diff(expected: golden, actual: golden) == nil)
    }
}

@Suite struct ScenarioErrorTests {
    @Test(arguments: [
        (
            "duration: 10s\ntimeline:\n  - at: 1s\n    do: explode\n    device: X\n", "scenario:4:9",
            "expected an action"
        ),
        ("duration: ten\n", "scenario:1:11", "\"ten\" is not a duration"),
        ("duration: 5s\nclient:\n  - reconnection: none\n", "scenario:3:5", "missing `device`"),
        (
            "duration: 5s\nexpect:\n  - event: reconected\n", "scenario:3:12",
            "expected an event (connected, failedToConnect"
        ),
        (
            "duration: 5s\nworld:\n  - builtIn: thermostat\nclient:\n  - device: Thermostat\n"
                + "    reconnection: {linear: {wait: 2s, attempts: 3, timeout: 0s}}\n",
            "scenario:6:28", "timeout"
        ),
        // Beyond a limit: the error points at the key that crosses it.
        ("duration: 1e300\n", "scenario:1:11", "longer than the longest duration accepted"),
        ("duration: 10s\nexpect:\n  - {event: lost, atLeast: 5, atMost: 2}\n", "scenario:3:39", "atLeast 5"),
        (
            "duration: 5s\nexpect:\n  - oracle: notification\n", "scenario:3:13",
            "expected an oracle (liveness, terminal, reconnection, notifications"
        ),
        ("duration: 5s\nexpect:\n  - {oracle: notifications, by: 2s}\n", "scenario:3:33", "drop by"),
        (
            "duration: 10s\ntimeline:\n  - {at: 1s, do: failNextConnects, device: X, count: 9223372036854775807}\n",
            "scenario:3:54", "from 1 to 10000"
        ),
        (
            "duration: 24h\nworld:\n  - builtIn: battery\nclient:\n  - device: Battery\n    read:\n"
                + "      - {service: battery, characteristic: battery-level, every: 100ms, type: uint8}\n",
            "scenario:7:66", "beyond the 100000"
        ),
    ])
    func anErrorNamesLineColumnAndWhatWasExpected(_ yaml: String, _ location: String, _ expected: String) {
        // Given a scenario with a mistake
        // When it is parsed
        // Then the error points at the line and column and says what was expected
        expectRefusal(yaml, at: location, saying: expected)
    }

    @Test func aTimelineNamingAnUnknownDeviceIsRefused() async throws {
        // Given a timeline acting on a peripheral the world does not have
        let scenario = try Scenario.parse(
            "duration: 5s\nworld:\n  - builtIn: battery\ntimeline:\n  - {at: 1s, do: reset, device: Thermostat}\n")

        // When it runs
        // Then the run is refused, naming the entry and the peripherals there are
        await #expect {
            _ = try await ScenarioRunner().run(scenario)
        } throws: { error in
            (error as? AirlinkError)?.message.contains("timeline[0].device") == true
                && (error as? AirlinkError)?.message.contains("Battery (B4:77:E2:00:00:02)") == true
        }
    }
}

@Suite struct ScenarioSweepTests {
    @Test func aSweepRunsEverySeedAndReportsTheFailingOnes() async throws {
        // Given the exponential scenario with an expectation that holds for some seeds only
        var scenario = try Scenario.load(path: ShippedScenarios.path("exponential-jitter.yaml"))
        scenario.expect = try Scenario.parse("duration: 1s\nexpect:\n  - event: reconnected\n    by: 18s\n").expect

        // When 16 seeds run
        let outcome = try await ScenarioSweep(scenario: scenario, seeds: 1...16).run()

        // Then each seed ran; the failures are exactly the seeds whose own run fails
        #expect(outcome.runs == 16)
        for seed in UInt64(1)...4 {
            let single = try await ScenarioRunner().run(scenario, seed: seed)
            #expect(outcome.failures.contains { $0.seed == seed } == !single.passed)
        }
        #expect(outcome.reconnectTimes == outcome.reconnectTimes.sorted())
    }
}

@Suite struct ScenarioArithmeticTests {
    @Test func aHugeStepOfABatteryLevelWrapsWithoutTrapping() async throws {
        // Given a battery level counting up by Int.max every second, checked with the same step
        let step = Int.max
        let yaml = """
            duration: 5s
            world:
              - name: B
                id: "C0:FF:EE:00:00:10"
                advertising: {interval: 100ms}
                services:
                  - uuid: "180F"
                    characteristics:
                      - {uuid: "2A19", properties: [read, notify], type: battery-level, value: 50,
                         updates: {every: 1s, add: \(step)}}
            client:
              - device: B
                subscribe: [{service: "180F", characteristic: "2A19", type: battery-level}]
            expect:
              - noNotificationLost: {service: "180F", characteristic: "2A19", type: battery-level, step: \(step)}
            """

        // When it runs
        let result = try await ScenarioRunner().run(try Scenario.parse(yaml))

        // Then the level wraps within 0-100 (Int.max % 101 = 52 a step) and every value is as expected
        #expect(result.passed, "\(result.summary)")
    }
}
