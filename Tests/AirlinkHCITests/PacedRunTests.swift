import AirlinkCore
import AirlinkSimulation
import Synchronization
import Testing

@Suite("Paced simulation")
struct PacedRunTests {
    @Test("a paced run's virtual clock never runs ahead of real time, and the trace says it was paced")
    func neverAhead() async throws {
        // Given a simulation with a timer due 50 ms of virtual time from now
        let simulation = Simulation(seed: 1, strict: false)
        let fired = Flag()
        simulation.spawn {
            try? await simulation.clock.sleep(for: .milliseconds(50))
            fired.set()
        }
        // When it runs paced until the timer fired
        let start = ContinuousClock.now  // real time on purpose: the property under test
        try await simulation.runPaced { _ in !fired.isSet && ContinuousClock.now - start < .seconds(10) }
        let real = ContinuousClock.now - start
        // Then at least 50 ms of real time passed, and virtual time is no further than real time
        #expect(fired.isSet)
        #expect(real >= .milliseconds(50))
        #expect(simulation.now.offset <= real)
        // The pacing is a free-form `sim` note (no typed record): its category and text are matched.
        guard case .line("sim", let text)? = simulation.trace.records.first?.event else {
            Issue.record("the trace does not start with a sim note: \(simulation.trace.records.first as Any)")
            return
        }
        #expect(text.contains("paced to the wall clock"))
    }
}

private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}
