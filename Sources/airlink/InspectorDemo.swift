import Airlink
import AirlinkCore
import AirlinkSimulation
import Logging
import Observation

/// The simulated world of `airlink inspect --demo` and `airlink observe --demo`: an inspector named
/// "Test Server" on one adapter of a simulation, and an observer on another.
struct InspectorDemo {
    /// The demo app's model: its temperature drifts every two seconds.
    @Observable final class Room: @unchecked Sendable {
        // @unchecked: touched only from the simulation's executor.
        var temperature = 21.5
        var enabled = true
        var label = "kitchen"
    }

    let sim: Simulation
    let room = Room()
    let inspector: Inspector
    let observer: InspectorClient

    /// The identifiers the demo's inspector publishes.
    static let identifiers = ["temperature", "enabled", "label"]

    /// Builds the demo: the inspector publishes temperature (read, notify), enabled (read, write,
    /// notify) and label (read, write), each with its protection in `protections` (`--protect`).
    init(seed: UInt64, name: String = "Test Server", protections: [String: InspectionOptions] = [:]) throws {
        // The layers log at info level; the demo prints the exchange itself, so only warnings go to stderr.
        let logger = Logger(label: "airlink.inspect") { _ in CommandLogHandler(verbose: false) }
        sim = Simulation(seed: seed, logger: logger)
        inspector = Inspector(name: name, transport: sim.radio, environment: sim.environment)
        func options(_ identifier: String, _ options: InspectionOptions) -> InspectionOptions {
            options.union(protections[identifier] ?? [])
        }
        try inspector.inspect(
            "temperature", of: room, \.temperature, options: options("temperature", [.read, .notify]))
        try inspector.inspect("enabled", of: room, \.enabled, options: options("enabled", [.read, .write, .notify]))
        try inspector.inspect("label", of: room, \.label, options: options("label", [.read, .write]))
        observer = InspectorClient(
            manager: DeviceManager(transport: VirtualRadio(simulation: sim), environment: sim.environment))
    }

    /// Starts the inspector and the room's drift (+0.5 °C every 2 s of virtual time).
    func start() async throws {
        let room = self.room
        let clock = sim.clock
        try await sim.run { try await self.inspector.start() }
        sim.spawn {
            while true {
                do { try await clock.sleep(for: .seconds(2)) } catch { return }
                room.temperature += 0.5
            }
        }
    }

    /// A line of the exchange happening now, in virtual time.
    func line(_ message: String) -> InspectorOutput.ExchangeLine {
        InspectorOutput.ExchangeLine(time: Seconds(sim.now.offset), message: message)
    }
}
