import Airlink
import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport

/// What every layer test needs: a simulation, a transport on it, and the verbs to act on the air.
///
/// The tests take nothing else, so they can be pointed at another transport (the virtual radio)
/// by changing ``make(seed:peripherals:tracing:)`` alone.
struct TestWorld {
    let sim: Simulation
    let transport: any Transport
    let radio: any RadioFixture

    /// A strict simulation (escaped work fails the run) with the peripherals on a scripted transport.
    static func make(seed: UInt64 = 7, peripherals: [TestPeripheral], tracing: Bool = true) throws -> TestWorld {
        let sim = Simulation(seed: seed, strict: true, tracing: tracing)
        let transport = try ScriptedTransport(environment: sim.environment, peripherals: peripherals, logging: tracing)
        return TestWorld(sim: sim, transport: transport, radio: transport)
    }

    /// A device manager on the world's transport and environment.
    func manager(_ configuration: DeviceManager.Configuration = .init()) -> DeviceManager {
        DeviceManager(transport: transport, environment: sim.environment, configuration: configuration)
    }

    /// The layers' events the trace recorded, in order, with their virtual time.
    var layerEvents: [(time: AirlinkInstant, event: AirlinkEvent)] {
        sim.trace.records.compactMap { record in
            guard case .layer(.event(let event)) = record.event else { return nil }
            return (record.time, event)
        }
    }

    /// The layers' events as the trace renders them, without time stamps:
    /// `C0:FF:EE:00:00:01 reconnected mtu=23`.
    var events: [String] { layerEvents.map(\.event.description) }

    /// The layers' events as the trace renders them, with their virtual time:
    /// `t=2.030000 C0:FF:EE:00:00:01 reconnected mtu=23`.
    var timedEvents: [String] { layerEvents.map { "t=\($0.time) \($0.event)" } }
}
