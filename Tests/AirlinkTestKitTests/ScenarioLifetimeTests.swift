import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Synchronization
import Testing

/// A run's simulation does not outlive the run: a sweep runs thousands in one process.
@Suite struct ScenarioLifetimeTests {
    /// Where the client leaves a weak reference to its run's simulation.
    final class Witness: Sendable {
        private struct Weak: @unchecked Sendable {
            // @unchecked: read and written under the mutex only.
            weak var simulation: Simulation?
        }
        private let slot = Mutex(Weak())

        func keep(_ simulation: Simulation) { slot.withLock { $0.simulation = simulation } }
        var isAlive: Bool { slot.withLock { $0.simulation != nil } }
    }

    @Test func aRunWithAnInspectorAndASleepingClientIsReleased() async throws {
        // Given the shipped inspector scenario (its inspector traces what centrals do, on streams
        // that never end), and a client still sleeping on the virtual clock when the run ends
        let scenario = try Scenario.load(path: ShippedScenarios.path("inspector-session.yaml"))
        let witness = Witness()

        // When the run is over and its result dropped
        do {
            let result = try await ScenarioRunner().run(scenario) { context in
                witness.keep(context.simulation)
                try? await context.simulation.clock.sleep(for: .seconds(86_400))
            }
            #expect(!result.trace.records.isEmpty)
        }

        // Then nothing holds the simulation any more
        #expect(!witness.isAlive)
    }
}
