import Airlink
import AirlinkBlueZ
import AirlinkCore
import AirlinkProfiles
import AirlinkRegistry
import AirlinkSimulation
import AirlinkTransports

/// What one CLI invocation works on: the ``/AirlinkTransports/OpenedTransport`` the options name,
/// with the transport, the environment the layers take their effects from, and a way to run async
/// work: on `sim` inside `Simulation.run` (virtual time passes at once, so `--timeout 5s` scans five
/// virtual seconds), on BlueZ directly.
///
/// Every command is written once, as a body given to ``run(_:)``.
struct Session: Sendable {
    /// The opened transport, which knows how to run work on it and how to close it.
    private let opened: OpenedTransport

    /// The transport (the virtual radio holding the built-in world, or BlueZ).
    var transport: any Transport { opened.transport }
    /// The environment: the simulation's, or the live one.
    var environment: AirlinkEnvironment { opened.environment }
    /// Whether the session works on the built-in simulated world (`sim`), in virtual time.
    var isSimulated: Bool { opened.isSimulated }

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
        let (seed, logger) = (global.seed, global.logger)
        let selector = TransportSelector(
            makeSimulated: { scenario throws(AirlinkError) in
                if let scenario { throw AirlinkError(.invalidArgument, scenarioMessage(scenario)) }
                let simulation = Simulation(seed: seed, strict: false, logger: logger)
                _ = try simulation.add(SimulatedWorld.builtIn)
                return simulation.opened(as: .simulation(scenario: nil), limit: .seconds(366 * 86_400))
            }, bluez: BlueZTransport.Configuration(logger: logger))
        return Session(opened: try await selector.open(try global.specifier()))
    }

    /// The device `query` names: resolved among `known` (a registry's devices) and the transport's (on
    /// BlueZ, the devices it lists, so that an address typed alone names a random one; on `sim`, the
    /// built-in world's, which must hold it: a device the world does not have is refused before
    /// connecting, with the ids to choose from; the radio's own message is advice for library users).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` `deviceNotFound` for a device the simulated world lacks,
    ///   `invalidDeviceID` for a type the device does not have or an address several devices share.
    func resolve(_ query: DeviceQuery, known: [DeviceID] = []) throws(AirlinkError) -> DeviceID {
        let world = SimulatedWorld.builtIn.peripherals
        let transportKnows = isSimulated ? world.map(\.id) : (transport as? BlueZTransport)?.knownDevices ?? []
        let device = try query.resolve(among: known + transportKnows)
        if isSimulated, !world.contains(where: { $0.id == device }) {
            throw AirlinkError(
                .deviceNotFound,
                "the simulated world has no device \(device); it has "
                    + world.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")
                    + ": airlink scan lists them; for a real device add --transport bluez")
        }
        return device
    }

    /// Runs `body`: in virtual time on `sim`, directly on BlueZ.
    func run<Success: Sendable>(_ body: @escaping @Sendable () async throws -> Success) async throws -> Success {
        try await opened.run(body)
    }

    /// Closes the transport; later calls do nothing.
    func close() { opened.close() }
}
