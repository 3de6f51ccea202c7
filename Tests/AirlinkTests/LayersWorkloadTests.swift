import Airlink
import AirlinkCore
import AirlinkTestSupport
import Testing

/// The benchmarks' workloads, run small: they must do what they claim before they are timed.
@Suite struct LayersWorkloadTests {
    @Test func fullCyclesRunRepeatedlyOnOneManager() async throws {
        let (sim, transport) = try LayersWorkloads.world()
        let manager = DeviceManager(transport: transport, environment: sim.environment)
        try await sim.run {
            for _ in 0..<5 { try await LayersWorkloads.fullCycle(manager: manager, transport: transport) }
        }
        #expect(manager.connections.count == 1)
        #expect(manager.connections[0].state == .disconnected)
        #expect(await transport.value(of: Thermostat.temperature, on: LayersWorkloads.thermostat) == [0x10, 0x01])
    }

    @Test(arguments: [false, true])
    func everyNotificationReachesTheObserverEvenBesideASlowOne(slowObserver: Bool) async throws {
        let setup = try await LayersWorkloads.notificationSetup(slowObserver: slowObserver)
        let outcome = try await LayersWorkloads.notifications(10_000, setup: setup)
        #expect(outcome.received == 10_000 && outcome.missed == 0)
        if slowObserver {
            // The slow observer got its first value, and is still working through the others
            try await setup.sim.run(for: .seconds(1))
            #expect(setup.slowValues.values.count == 100)
        }
    }

    @Test func aDayOfLossesEveryFiveMinutesReconnectsEveryTime() async throws {
        let reconnections = try await LayersWorkloads.dayOfLosses(hours: 24)
        #expect(reconnections == 288)
    }
}

extension LayersWorkloadTests {
    /// Executor jobs per notification through the whole stack: a deterministic measure of the hops
    /// a value takes (wall-clock figures come from Benchmarks/LayersBenchmarks).
    @Test func aNotificationCostsAFractionOfAnExecutorJob() async throws {
        // Given a connected device with an observer of its battery level
        let setup = try await LayersWorkloads.notificationSetup(slowObserver: false)
        let before = setup.sim.statistics.jobs

        // When 10,000 notifications go through the stack
        let outcome = try await LayersWorkloads.notifications(10_000, setup: setup)

        // Then they were delivered in batches: far less than one executor job each
        let jobs = Double(setup.sim.statistics.jobs - before) / 10_000
        #expect(outcome.received == 10_000)
        #expect(jobs < 0.5, "\(jobs) executor jobs per notification")
    }
}
