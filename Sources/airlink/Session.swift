import Airlink
import AirlinkBlueZ
import AirlinkCore
import AirlinkProfiles
import AirlinkRegistry
import AirlinkSimulation
import AirlinkTestKit
import AirlinkTransports
import ArgumentParser

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
    /// Whether the session works on a simulated world (`sim`, `sim:RECORDING`), in virtual time.
    var isSimulated: Bool { opened.isSimulated }
    /// The peripherals of the simulated world: the built-in ones, or the replayed recording's; none on BlueZ.
    let simulatedWorld: [PeripheralSpec]
    /// The devices of the simulated world.
    var simulatedDevices: [DeviceID] { simulatedWorld.map(\.id) }

    /// What `sim:PATH` answers for a file that is not a recording: scenarios run with `airlink simulate`.
    static func scenarioMessage(_ path: String) -> String {
        "a scenario file (sim:\(path)) runs with `airlink simulate \(path)`, which builds its world, timeline "
            + "and client; other commands use --transport sim, the built-in simulated world, or "
            + "sim:RECORDING.yaml, a device recorded with `airlink record`"
    }

    /// Opens the transport the options name, through ``/AirlinkTransports/TransportSelector``.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` when the transport cannot be opened (no BlueZ on the bus, no adapter:
    ///   the message says which and how to fix it).
    static func open(_ global: GlobalOptions) async throws -> Session {
        let (seed, logger) = (global.seed, global.logger)
        let specifier = try global.specifier()
        var world: [PeripheralSpec] = []
        if case .simulation(let path) = specifier {
            // A recording that cannot be replayed is a bad `--transport` value, as a missing file is: exit 64.
            do { world = try TransportSelector.simulatedWorld(for: path) } catch {
                throw ValidationError(error.message)
            }
        }
        let selector = TransportSelector(
            makeSimulated: TransportSelector.simulation(seed: seed, logger: logger, world: world),
            bluez: BlueZTransport.Configuration(logger: logger))
        let opened = try await selector.open(specifier)
        return Session(opened: opened, simulatedWorld: world)
    }

    /// The device `query` names: resolved among `known` (a registry's devices) and the transport's (on
    /// BlueZ, the devices it lists, so that an address typed alone names a random one; on `sim`, the
    /// simulated world's (built in, or a replayed recording), which must hold it: a device the world does
    /// not have is refused before connecting, with the ids to choose from; the radio's own message is advice
    /// for library users).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` `deviceNotFound` for a device the simulated world lacks,
    ///   `invalidDeviceID` for a type the device does not have or an address several devices share.
    func resolve(_ query: DeviceQuery, known: [DeviceID] = []) throws(AirlinkError) -> DeviceID {
        let world = simulatedWorld
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
