import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import Testing

/// What the layers leave behind: nothing. A device manager, its connections and its service
/// objects are freed once the app lets go of them after ``DeviceManager/shutdown()``, so a sweep
/// or a test suite that makes thousands of managers in one process stays flat.
@Suite struct LifetimeTests {
    /// Weak references to the layers' objects of one run.
    private final class Weak: @unchecked Sendable {
        // @unchecked: written once by the run before it returns, read after it.
        weak var manager: DeviceManager?
        weak var connection: ConnectionManager?
        weak var services: DeviceServices?
        weak var service: DeviceService?
        weak var simulation: Simulation?
    }

    /// Runs a whole session with the thermostat (connect, discover, read, subscribe, write, take a value, disconnect,
    /// shut down) and returns weak references to what it made.
    private static func session(
        reconnection: some ReconnectionStrategy, shutdown: Bool = true
    ) async throws -> Weak {
        let weak = Weak()
        let sim = Simulation(seed: 7, strict: true)
        _ = try sim.add(SimulatedWorld([.thermostat()]))
        try await sim.run {
            let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
            let connection = manager.connection(to: "C0:FF:EE:00:00:01", reconnection: reconnection)
            let service = connection.services.service(.thermostatTemperatureService)
            try await connection.connect(timeout: .seconds(3))
            _ = try await service.read(Int16.self, from: .thermostatTemperature)
            _ = try await service.enableNotifications(for: .thermostatTemperature)
            let values = service.values(of: .thermostatTemperature)
            try await service.write(Int16(2300), to: .thermostatTemperature)
            for await _ in values { break }
            await connection.disconnect()
            if shutdown { manager.shutdown() }
            (weak.manager, weak.connection, weak.services, weak.service) =
                (manager, connection, connection.services, service)
        }
        try await sim.runUntilIdle()
        weak.simulation = sim
        return weak
    }

    @Test(arguments: [false, true])
    func nothingOutlivesItsSimulation(reconnecting: Bool) async throws {
        // Given a finished session through the layers, with and without a reconnection strategy
        let weak =
            reconnecting
            ? try await Self.session(reconnection: .linear(wait: .seconds(1), attempts: 3, timeout: .seconds(2)))
            : try await Self.session(reconnection: .none)

        // Then once the app holds none of them, the manager, the connection and the service objects
        // are gone
        #expect(weak.manager == nil)
        #expect(weak.connection == nil)
        #expect(weak.services == nil)
        #expect(weak.service == nil)
    }

    @Test func aManagerNeverShutDownGoesWithItsSimulation() async throws {
        // Given a finished session whose app never called shutdown()
        let weak = try await Self.session(reconnection: .none, shutdown: false)

        // Then once the app lets go of the simulation, the simulation and the layers' objects are
        // gone: the manager's listening task ended with the radio's event stream
        #expect(weak.simulation == nil)
        #expect(weak.manager == nil)
        #expect(weak.connection == nil)
        #expect(weak.service == nil)
    }

    @Test func aConnectionWaitingToReconnectGoesWithItsSimulation() async throws {
        // Given a connected thermostat whose link drops, with a linear strategy that waits a minute
        // before reconnecting, and an app that lets go of the simulation during that wait without
        // shutting its manager down
        final class Held: @unchecked Sendable {
            // @unchecked: written by the run before it returns, read after it.
            weak var simulation: Simulation?
            weak var connection: ConnectionManager?
        }
        let held = Held()
        do {
            let sim = Simulation(seed: 7, strict: true)
            let peripherals = try sim.add(SimulatedWorld([.thermostat()]))
            let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
            let connection = manager.connection(
                to: "C0:FF:EE:00:00:01", reconnection: .linear(wait: .seconds(60), attempts: 3, timeout: .seconds(2)))
            try await sim.run { try await connection.connect(timeout: .seconds(3)) }
            peripherals[0].dropLink(reason: .supervisionTimeout)
            try await sim.run(for: .seconds(5))
            guard case .reconnecting = connection.state else {
                Issue.record("expected the connection to wait to reconnect, it is \(connection.state)")
                return
            }
            (held.simulation, held.connection) = (sim, connection)
        }

        // Then the simulation and the connection are gone: the wait ended with the simulation
        #expect(held.simulation == nil)
        #expect(held.connection == nil)
    }

    @Test func aConnectionWaitingForAdvertisementsGoesWithItsManager() async throws {
        // Given a connected thermostat that stops advertising and drops its link, with a strategy that
        // reconnects when it advertises again: the connection watches the scans for it
        final class Held: @unchecked Sendable {
            // @unchecked: written by the test's task, read after the runs.
            weak var manager: DeviceManager?
            weak var connection: ConnectionManager?
        }
        let held = Held()
        let sim = Simulation(seed: 7, strict: true)
        let peripherals = try sim.add(SimulatedWorld([.thermostat()]))
        do {
            let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
            let connection = manager.connection(
                to: "C0:FF:EE:00:00:01", reconnection: .whenAdvertising(timeout: .seconds(2)))
            try await sim.run { try await connection.connect(timeout: .seconds(3)) }
            peripherals[0].stopAdvertising()
            peripherals[0].dropLink(reason: .supervisionTimeout)
            try await sim.run(for: .seconds(5))
            guard case .reconnecting = connection.state else {
                Issue.record("expected the connection to wait for advertisements, it is \(connection.state)")
                return
            }

            // When the app shuts the manager down and lets go of it, the simulation going on
            manager.shutdown()
            (held.manager, held.connection) = (manager, connection)
        }
        try await sim.run(for: .seconds(5))

        // Then the manager and the connection are gone: the scan coordinator's watcher did not keep it
        #expect(held.manager == nil)
        #expect(held.connection == nil)
        withExtendedLifetime(sim) {}
    }

    @Test func aDiscoveryRunningAtShutdownGoesWithItsManager() async throws {
        // Given a discovery of a minute, running
        final class Held: @unchecked Sendable {
            // @unchecked: written by the test's task, read after the runs.
            weak var manager: DeviceManager?
            weak var discovery: Discovery?
        }
        let held = Held()
        let sim = Simulation(seed: 7, strict: true)
        _ = try sim.add(SimulatedWorld([.thermostat()]))
        do {
            let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
            let discovery = try await sim.run { try await manager.discover(timeout: .seconds(60)) }
            try await sim.run(for: .seconds(1))

            // When the app shuts the manager down and lets go of both, the simulation going on
            manager.shutdown()
            (held.manager, held.discovery) = (manager, discovery)
        }
        try await sim.run(for: .seconds(5))

        // Then both are gone well before the discovery's timeout: shutdown stopped it
        #expect(held.manager == nil)
        #expect(held.discovery == nil)
        withExtendedLifetime(sim) {}
    }
}
