import AirlinkCore
import AirlinkSimulation

extension Scenario {
    /// Adds the scenario's world to `simulation` and starts its timeline, without its clients or
    /// expectations: for serving the world to a host of another kind (`airlink controller --world`).
    ///
    /// Each action of the timeline happens at its time counted from the simulation's start, as in a run.
    ///
    /// - Returns: the peripherals added, in the world's order.
    /// - Throws: ``/AirlinkCore/AirlinkError`` naming the peripheral that does not build or the timeline entry
    ///   that names no peripheral of the world.
    public func serve(in simulation: Simulation) throws(AirlinkError) -> [SimulatedPeripheral] {
        var peripherals: [SimulatedPeripheral] = []
        for spec in try peripheralSpecs() { peripherals.append(try simulation.add(spec)) }
        let context = ScenarioContext(
            simulation: simulation, managers: [], peripherals: peripherals,
            recorder: ScenarioRecorder(environment: simulation.environment), inspectors: [],
            background: ScenarioBackgroundTasks())
        ScenarioTimeline(actions: try ResolvedScenario(self, context: context).actions, context: context).start()
        return peripherals
    }
}
