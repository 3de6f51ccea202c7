import AirlinkCore

extension Scenario {
    /// The peripherals of the scenario's world, built as a run builds them (built-ins with their overrides,
    /// recordings, custom peripherals), for serving the world without running the scenario (`airlink
    /// controller --world`).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError`` naming the peripheral whose description does not build.
    public func peripheralSpecs() throws(AirlinkError) -> [PeripheralSpec] {
        var specs: [PeripheralSpec] = []
        for (index, peripheral) in world.enumerated() {
            specs.append(try ScenarioBuiltIns.spec(for: peripheral, at: index))
        }
        return specs
    }
}
