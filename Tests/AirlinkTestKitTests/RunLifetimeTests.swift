import Airlink
import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Synchronization
import Testing

/// Nothing of a finished run outlives it: not its simulation, radio, trace, managers, connections or
/// service managers. A sweep runs thousands of runs in one process, and each kept would hold its trace.
@Suite struct RunLifetimeTests {
    /// Weak references to a run's objects, by name.
    final class Witness: Sendable {
        private struct Weak: @unchecked Sendable {
            // @unchecked: read and written under the mutex only.
            var name: String
            weak var object: AnyObject?
        }
        private let slots = Mutex<[Weak]>([])

        func keep(_ name: String, _ object: AnyObject) {
            slots.withLock { $0.append(Weak(name: name, object: object)) }
        }

        /// Everything of the run a test can reach once it is over: its simulation, radio, trace, each app's
        /// manager, its connections, their services and the service managers of what they discovered.
        func keep(_ context: ScenarioContext) {
            keep("simulation", context.simulation)
            keep("radio", context.simulation.radio)
            keep("trace", context.simulation.trace)
            for (app, manager) in context.managers.enumerated() {
                keep("manager \(app + 1)", manager)
                for connection in manager.connections {
                    keep("connection \(connection.device)", connection)
                    keep("services of \(connection.device)", connection.services)
                    for service in connection.services.discoveredServices {
                        keep(
                            "service \(service.uuid) of \(connection.device)", connection.services.service(service.uuid)
                        )
                    }
                }
            }
        }

        /// The names of the objects still alive.
        var alive: [String] { slots.withLock { $0.filter { $0.object != nil }.map(\.name) } }
        var count: Int { slots.withLock { $0.count } }
    }

    /// Runs `scenario` (through the explorer's judge when `judged`), drops its result and returns the
    /// witness of what the run made.
    private static func leftovers(of scenario: Scenario, judged: Bool = false) async throws -> Witness {
        let witness = Witness()
        var runner = ScenarioRunner()
        runner.onFinish = { witness.keep($0) }
        if judged {
            _ = try await Explorer().judge(scenario, with: runner)
        } else {
            let result = try await runner.run(scenario)
            #expect(!result.trace.records.isEmpty)
        }
        return witness
    }

    /// Seeds whose runs end with work under way: 4 with connections waiting for advertisements, 30 with a
    /// write whose response is delayed past the end (its client's task waited on the radio forever).
    @Test(arguments: [UInt64(4), 30])
    func anExplorerRunLeavesNothingBehind(seed: UInt64) async throws {
        // Given an explorer seed: a drawn world, clients that connect and subscribe, faults
        let scenario = try ExplorationGenerator().plan(seed: seed).scenario()

        // When it is judged and its failures are all that is kept
        let witness = try await Self.leftovers(of: scenario, judged: true)

        // Then every object of the run is freed
        #expect(witness.count > 5)
        #expect(witness.alive == [])
    }

    @Test func aScenarioRunEndingDuringAConnectionAttemptLeavesNothingBehind() async throws {
        // Given explorer seed 16's scenario: a link dropped near the end, its client's strategy
        // reconnecting with an attempt still under way when the run ends
        let scenario = try ExplorationGenerator().plan(seed: 16).scenario()

        // When it has run and its result is dropped
        let witness = try await Self.leftovers(of: scenario)

        // Then every object of the run is freed: the attempt failed as the radio went away
        #expect(witness.count > 5)
        #expect(witness.alive == [])
    }

    @Test func aShippedScenarioRunLeavesNothingBehind() async throws {
        // Given a shipped scenario whose client connects, reads and subscribes
        let scenario = try Scenario.load(path: ShippedScenarios.path("linear-link-loss.yaml"))

        // When it has run and its result is dropped
        let witness = try await Self.leftovers(of: scenario)

        // Then every object of the run is freed
        #expect(witness.count > 5)
        #expect(witness.alive == [])
    }
}
