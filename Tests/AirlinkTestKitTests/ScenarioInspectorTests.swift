import Airlink
import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Testing

/// Inspectors declared in a scenario's world: an app publishing values on its own adapter, used by
/// the client through an InspectorClient, changed by the timeline, checked by expectations.
@Suite struct ScenarioInspectorTests {
    static let world = """
        duration: 10s
        world:
          - inspector: Test Server
            values:
              - {identifier: level, type: uint8, value: 40, options: [read, write, notify]}
              - {identifier: label, type: string, value: kitchen, options: [read]}
          - builtIn: battery

        """

    @Test func theClientFollowsReadsAndWritesAnInspectorAndTheExpectationsSeeIt() async throws {
        // Given an inspector whose level the timeline raises and the client writes
        let scenario = try Scenario.parse(
            Self.world + """
                timeline:
                  - {at: 3s, do: setValue, device: Test Server, identifier: level, value: 41}
                client:
                  - device: Test Server
                    observe:
                      read: [{identifier: label, at: 2s}]
                      write: [{identifier: level, at: 5s, value: 90}]
                expect:
                  - observed: {identifier: level, equals: 41, by: 4s}
                  - observed: {identifier: label, equals: kitchen}
                  - written: {identifier: level, equals: 90, device: Test Server}
                  - observed: {identifier: level, equals: 90}
                  - observed: {identifier: level, equals: 42}

                """)

        // When it runs
        let result = try await ScenarioRunner().run(scenario)

        // Then the first four expectations hold, the value never seen does not, and the records say how each was seen
        #expect(result.expectations.map(\.held) == [true, true, true, true, false], "\(result.summary)")
        #expect(result.expectations[4].reason.contains("0 observation(s) of level = 42"))
        #expect(result.violations.isEmpty, "\(result.violations)")
        let level = result.inspected.filter { $0.identifier == "level" }.map { "\($0.source.rawValue) \($0.value)" }
        #expect(level == ["notified 41", "written 90", "notified 90"])
        let events = result.trace.records.map(\.event)
        #expect(events.contains(.inspector(.written(inspector: "Test Server", identifier: "level", value: "90"))))
        let listed = [
            ClientTraceEvent.InspectedValueListing(identifier: "level", type: "UInt8"),
            ClientTraceEvent.InspectedValueListing(identifier: "label", type: "String"),
        ]
        #expect(events.contains(.client(.inspectorListed("5A:1A:00:00:00:02", values: listed))))
    }

    @Test func userCodeChangesAnInspectorsValueThroughTheContext() async throws {
        // Given the world, and user code that connects through the manager and follows the level
        let scenario = try Scenario.parse(Self.world)
        let result = try await ScenarioRunner().run(scenario) { context in
            do {
                let inspector = try context.inspector("Test Server")
                let connection = context.manager.connection(to: "5A:1A:00:00:00:02")
                try await connection.connect(timeout: .seconds(5))
                let observed = try await InspectorClient.inspector(on: connection)
                let changes = try await observed.changes()
                // When the app behind the inspector changes its value
                try await inspector.setValue(.unsigned(77, bits: 8), for: "level")
                for await change in changes {
                    context.log("saw \(change)")
                    break
                }
            } catch {
                context.log("failed: \(error)")
            }
        }

        // Then the client saw it
        // What user code logs is a free-form `client` note: its category and text are matched.
        let logged = result.trace.records.compactMap { record -> String? in
            guard case .line("client", let text) = record.event else { return nil }
            return text
        }
        #expect(logged.contains("saw level = 77"), "\(logged)")
    }

    @Test(arguments: [
        (
            "  - inspector: X\n    builtIn: thermostat\n    values: []\n", "scenario:4:14",
            "an inspector is an app on its own adapter"
        ),
        (
            "  - inspector: X\n    values: [{identifier: a, type: float, value: 1}]\n", "scenario:4:36",
            "is not an inspected type"
        ),
        (
            "  - inspector: X\n    values: [{identifier: a, type: uint8, value: 300}]\n", "scenario:4:50",
            "expected an integer from 0 to 255"
        ),
        (
            "  - inspector: X\n    values: [{identifier: a, type: bool, value: true, options: [read, shout]}]\n",
            "scenario:4:", "expected read, write or notify, found 'shout'"
        ),
    ])
    func badDeclarationsNameLineColumnAndWhatWasExpected(_ world: String, _ location: String, _ expected: String) {
        // Given an inspector declared wrongly, When parsed, Then the error points at it and says what was expected
        #expect {
            _ = try Scenario.parse("duration: 5s\nworld:\n" + world)
        } throws: { error in
            guard let error = error as? AirlinkError else { return false }
            return error.code == .invalidSpecification && error.message.contains(location)
                && error.message.contains(expected)
        }
    }

    @Test(arguments: [
        (
            "timeline:\n  - {at: 1s, do: setValue, device: Battery, identifier: level, value: 1}\n",
            "is not an inspector"
        ),
        (
            "timeline:\n  - {at: 1s, do: setValue, device: Test Server, identifier: lvl, value: 1}\n",
            "has no value 'lvl'"
        ),
        ("timeline:\n  - {at: 1s, do: setValue, device: Test Server, identifier: level, value: x}\n", "found \"x\""),
        (
            "client:\n  - device: Test Server\n    observe: {write: [{identifier: level, value: -1}]}\n",
            "expected an integer from 0 to 255"
        ),
        (
            "client:\n  - device: Battery\n    observe: {follow: true}\n",
            "client[0].observe: 'Battery' is not an inspector"
        ),
        ("expect:\n  - observed: {identifier: volume, equals: 1}\n", "no inspector of the world has a value 'volume'"),
    ])
    func referencesToInspectorsAreCheckedWhenTheRunStarts(_ rest: String, _ expected: String) async throws {
        // Given a scenario whose timeline, client or expectations misuse the inspector
        let scenario = try Scenario.parse(Self.world + rest)

        // When it runs, Then it is refused before anything happens, saying what is wrong
        await #expect {
            _ = try await ScenarioRunner().run(scenario)
        } throws: { error in
            guard let error = error as? AirlinkError else { return false }
            return error.code == .invalidSpecification && error.message.contains(expected)
        }
    }

    @Test func duplicateIdentifiersAreRefusedNamingTheWorldEntry() async throws {
        // Given an inspector declaring one identifier twice
        let scenario = try Scenario.parse(
            "duration: 5s\nworld:\n  - inspector: X\n    values:\n"
                + "      - {identifier: a, type: bool, value: true}\n"
                + "      - {identifier: a, type: bool, value: false}\n"
        )

        // When it runs, Then the world entry and the problem are named
        await #expect {
            _ = try await ScenarioRunner().run(scenario)
        } throws: { error in
            let message = (error as? AirlinkError)?.message ?? ""
            return message.contains("world[0] inspector \"X\"") && message.contains("another value has this identifier")
        }
    }
}
