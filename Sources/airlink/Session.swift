import Airlink
import AirlinkBlueZ
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import AirlinkTransports
import Foundation
import Synchronization

/// What one CLI invocation works on: a transport, the environment the layers take their effects
/// from, and a way to run async work: on `sim` inside `Simulation.run` (virtual time passes at
/// once, so `--timeout 5s` scans five virtual seconds), on BlueZ directly.
///
/// Every command is written once, as a body given to ``run(_:)``.
final class Session: Sendable {
    /// The transport (the virtual radio holding the built-in world, or BlueZ).
    let transport: any Transport
    /// The environment: the simulation's, or the live one.
    let environment: AirlinkEnvironment
    /// The simulation, on `sim`.
    let simulation: Simulation?
    /// What the user chose.
    let specifier: TransportSpecifier

    private init(
        transport: any Transport, environment: AirlinkEnvironment, simulation: Simulation?,
        specifier: TransportSpecifier
    ) {
        self.transport = transport
        self.environment = environment
        self.simulation = simulation
        self.specifier = specifier
    }

    /// What `sim:PATH` answers until scenario files exist.
    static func scenarioMessage(_ path: String) -> String {
        "a scenario file (sim:\(path)) runs with `airlink simulate \(path)`, which builds its world, timeline "
            + "and client; other commands use --transport sim, the built-in simulated world"
    }

    /// Opens the transport the options name, through ``/AirlinkTransports/TransportSelector``.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` when the transport cannot be opened (no BlueZ on the bus, no adapter:
    ///   the message says which and how to fix it).
    static func open(_ global: GlobalOptions) async throws -> Session {
        let specifier = try global.specifier()
        let created = Mutex<Simulation?>(nil)
        let (seed, logger) = (global.seed, global.logger)
        let selector = TransportSelector(
            makeSimulated: { scenario throws(AirlinkError) in
                if let scenario { throw AirlinkError(.invalidArgument, scenarioMessage(scenario)) }
                let simulation = Simulation(seed: seed, strict: false, logger: logger)
                _ = try simulation.add(SimulatedWorld.builtIn)
                created.withLock { $0 = simulation }
                return simulation.radio
            }, bluez: BlueZTransport.Configuration(logger: logger))
        let transport = try await selector.makeTransport(specifier)
        if let simulation = created.withLock({ $0 }) {
            return Session(
                transport: transport, environment: simulation.environment, simulation: simulation,
                specifier: specifier)
        }
        return Session(transport: transport, environment: .live(logger: logger), simulation: nil, specifier: specifier)
    }

    /// Runs `body`: in virtual time on `sim`, directly on BlueZ.
    func run<Success: Sendable>(_ body: sending @escaping @Sendable () async throws -> Success) async throws -> Success
    {
        if let simulation {
            return try await simulation.run(limit: .seconds(366 * 86_400), body)
        }
        return try await body()
    }

    /// Closes the transport.
    func close() {
        if let radio = transport as? VirtualRadio { radio.shutdown() }
        if let bluez = transport as? BlueZTransport { bluez.close() }
    }
}
