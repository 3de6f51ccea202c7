import Airlink
import AirlinkCore
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
