/// A set of simulated peripherals that make up a world to scan and connect to.
///
/// AirlinkProfiles provides `SimulatedWorld.builtIn`; a simulation adds every peripheral of a world
/// with `Simulation.add(_:)`.
public struct SimulatedWorld: Sendable {
    /// The peripherals, in the order they are added.
    public var peripherals: [PeripheralSpec]

    /// Creates a world.
    public init(_ peripherals: [PeripheralSpec]) { self.peripherals = peripherals }
}
