import Airlink
import AirlinkCore
import AirlinkSimulation
import Observation

/// A simulation with an inspector on one adapter (`sim.radio`) and observers on further adapters of
/// the same air, each with its own `DeviceManager`.
struct InspectorWorld {
    let sim: Simulation
    let app: VirtualRadio
    let inspector: Inspector

    init(seed: UInt64 = 7, name: String = "Test Server") {
        sim = Simulation(seed: seed, strict: true)
        app = sim.radio
        inspector = Inspector(name: name, transport: app, environment: sim.environment)
    }

    /// An observer on a new central adapter of the simulation.
    func observer() -> InspectorClient {
        InspectorClient(manager: DeviceManager(transport: VirtualRadio(simulation: sim), environment: sim.environment))
    }

    /// Discovers the inspector by name and connects to it.
    func connect(_ observer: InspectorClient, name: String = "Test Server") async throws -> ObservedInspector {
        let found = try await observer.discover(named: name, timeout: .seconds(5))
        guard let first = found.first else { throw AirlinkError(.deviceNotFound, "no inspector \"\(name)\"") }
        return try await observer.connect(to: first.id)
    }
}

/// An app model whose properties an inspector publishes.
@Observable final class Room: @unchecked Sendable {
    // @unchecked: tests touch it only from the simulation's executor.
    var temperature = 21.5
    var label = "kitchen"
}

/// A box for a value closures read and write.
final class Box<Value: Sendable>: @unchecked Sendable {
    // @unchecked: tests touch it only from the simulation's executor.
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A Codable value published as JSON.
struct Limits: Codable, JSONInspectable, Hashable {
    var low: Double
    var high: Double
}
