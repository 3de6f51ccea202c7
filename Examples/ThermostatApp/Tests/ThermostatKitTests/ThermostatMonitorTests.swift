import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import AirlinkTestKit
import Foundation
import Testing
import ThermostatKit

/// The monitor on the virtual radio: a thermostat and a battery sensor, link losses at chosen virtual times.
@Suite struct ThermostatMonitorTests {
    @Test func keepsTheSubscriptionAcrossLinkLossesAtChosenTimes() async throws {
        // Given a thermostat that drops the link at 20 s and at 95 s
        let run = try await MonitorRun(seed: 3, for: .seconds(180), dropLinkAt: [.seconds(20), .seconds(95)])

        // Then the monitor saw both losses at those times, and reconnected after each
        let lost = run.monitor.observations.filter { observation in
            if case .connection(.lost) = observation.kind { return true }
            return false
        }
        #expect(lost.map { $0.time.offset } == [.seconds(20), .seconds(95)])
        let reconnected = run.monitor.observations.filter { observation in
            if case .connection(.reconnected) = observation.kind { return true }
            return false
        }
        #expect(reconnected.count == 2)
        // And temperatures kept coming on the same subscription after the last reconnection
        let lastReconnection = try #require(reconnected.last).time
        let readingsAfter = run.monitor.observations.filter { observation in
            if case .reading = observation.kind { return observation.time > lastReconnection }
            return false
        }
        #expect(readingsAfter.count > 10, "\(run.monitor.observations.suffix(20))")
        #expect(run.simulation.trace.events(in: "event").filter { $0.contains("notificationsRestored") }.count == 2)
    }

    @Test func theSameSeedGivesTheSameTraceTwice() async throws {
        let first = try await MonitorRun(seed: 42, for: .seconds(120), dropLinkAt: [.seconds(30)])
        let second = try await MonitorRun(seed: 42, for: .seconds(120), dropLinkAt: [.seconds(30)])
        let other = try await MonitorRun(seed: 43, for: .seconds(120), dropLinkAt: [.seconds(30)])

        #expect(first.trace.count > 100)
        #expect(Array(first.trace.utf8) == Array(second.trace.utf8))
        #expect(first.monitor.observations.map(\.description) == second.monitor.observations.map(\.description))
        // The seed matters: the drift and the back-off's jitter are drawn from it
        #expect(first.trace != other.trace)
    }

    /// A simulated hour with three link losses: every reading and reconnection of the hour, in virtual time. How
    /// long it takes on the wall clock is a measurement (README: 0.43–1.3 s here), not something a test asserts.
    @Test func aSimulatedHourKeepsItsReadingsAcrossThreeLosses() async throws {
        let run = try await MonitorRun(
            seed: 9, for: .seconds(3600), dropLinkAt: [.seconds(600), .seconds(1800), .seconds(3000)])
        let monitor = run.monitor
        #expect(monitor.readings.count > 500)
        #expect(monitor.connectionEvents.filter { if case .reconnected = $0 { true } else { false } }.count == 3)
    }
}

/// One run of the monitor in a strict simulation with a thermostat (drifting, so it notifies) and a battery
/// sensor, which advertises no thermostat service and must be passed over.
struct MonitorRun {
    let simulation: Simulation
    let monitor: ThermostatMonitor

    /// The run's trace, one line per event in virtual time.
    var trace: String { simulation.trace.text }

    init(seed: UInt64, for duration: Duration, dropLinkAt times: [Duration]) async throws {
        let simulation = Simulation(seed: seed, strict: true)
        _ = try simulation.add(.battery(position: .metres(1)))
        let thermostat = try simulation.add(.thermostat(drift: 0.05, position: .metres(3)))
        for time in times { thermostat.schedule(.dropLink(.supervisionTimeout), after: time) }
        let monitor = ThermostatMonitor(transport: simulation.radio, environment: simulation.environment)
        try await simulation.run(limit: duration + .seconds(60)) { try await monitor.monitor(for: duration) }
        monitor.manager.shutdown()
        self.simulation = simulation
        self.monitor = monitor
    }
}
