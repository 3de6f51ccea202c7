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

    /// The `event` lines of the trace, without time stamps.
    var events: [String] { sim.trace.events(in: "event") }

    /// The `event` lines of the trace with their virtual time: `t=2.030000 C0:... reconnected mtu=23`.
    var timedEvents: [String] {
        sim.trace.lines.filter { $0.contains(" event ") }.map { $0.replacing(" event ", with: " ") }
    }
}
