import Airlink
import AirlinkCore
import AirlinkTestSupport
import Testing

/// The layers-over-the-radio workloads that `Benchmarks/LayersBenchmarks` measures do what they say.
@Suite struct RadioLayersWorkloadTests {
    @Test func fullCyclesRunRepeatedlyOnOneManager() async throws {
        // Given the thermostat, not connected, with the trace on
        let world = try await RadioLayersWorkloads.world(tracing: true, connected: false)

        // When five full cycles run on one manager
        try await world.sim.run { for _ in 0..<5 { try await RadioLayersWorkloads.fullCycle(world) } }

        // Then each connected, read, and disconnected: one connection object, disconnected, and
        // five links established on the radio
        #expect(world.manager.connections.count == 1)
        #expect(world.connection.state == .disconnected)
        let links = world.sim.trace.records.filter { if case .connected = $0.event { true } else { false } }
        #expect(links.count == 5)
    }

    @Test func readsReturnTheThermostatsTemperature() async throws {
        // Given a connected thermostat at 21.00 °C (0x0834, little-endian: first byte 0x34)
        let world = try await RadioLayersWorkloads.world()

        // When 100 reads run
        let sum = try await RadioLayersWorkloads.reads(100, in: world)

        // Then each read the value's first byte
        #expect(sum == 100 * 0x34)
    }

    @Test func everyNotificationReachesTheObserver() async throws {
        // Given a connected thermostat with temperature notifications on
        let world = try await RadioLayersWorkloads.world()
        try await RadioLayersWorkloads.subscribe(world)

        // When it notifies 2,000 times in bursts
        let outcome = try await RadioLayersWorkloads.notifications(2_000, in: world)

        // Then the observer received every one, none missed
        #expect(outcome.received == 2_000 && outcome.missed == 0)
    }
}
