import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import Testing

/// The scale workloads that `Benchmarks/ScaleBenchmarks` measures do what they say.
@Suite struct FleetWorkloadTests {
    @Test func everyAdvertiserIsHeardAboutTenTimesASecond() async throws {
        // Given 50 fleet sensors advertising every 100 ms (plus 0–10 ms advDelay)
        let sim = Simulation(seed: 3, tracing: false)
        for index in 0..<50 { try sim.add(FleetWorkloads.sensor(index)) }

        // When the radio scans with duplicates for one virtual second
        let heard = try await FleetWorkloads.scan(sim, for: .seconds(1))

        // Then each was heard 9 or 10 times
        #expect((450...500).contains(heard))
    }

    @Test func connectedSensorsNotifyTheirCounterAtTenHertz() async throws {
        // Given three sensors connected through the layers, notifications on
        let fleet = try await FleetWorkloads.connectedFleet(3)
        #expect(fleet.manager.connections.count == 3)

        // When they run for two virtual seconds
        let outcome = try await FleetWorkloads.notify(fleet, for: .seconds(2))

        // Then each observer received about 20 values, none missed
        #expect((57...60).contains(outcome.received))
        #expect(outcome.missed == 0)
    }

    @Test func aFleetIsSetUpInTheSameVirtualTimeAtAnySize() async throws {
        // Given a fleet of 30 sensors (one after the other, each connection took a few hundred
        // virtual milliseconds while the sensors connected before it notified: set-up grew with
        // the square of the fleet, and 1,000 sensors never finished in a benchmark)
        let fleet = try await FleetWorkloads.connectedFleet(30)

        // Then all are connected with notifications on within two virtual seconds, as one would be
        #expect(fleet.manager.connections.count == 30)
        #expect(fleet.sim.now < AirlinkInstant(offset: .seconds(2)))
    }
}
