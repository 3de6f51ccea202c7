import AirlinkCore
import AirlinkSimulation

extension ExplorationObservation {
    /// Each peripheral's database over time, built from the world's specs and the timeline's
    /// `changeDatabase` and `reset` actions (a change the database refuses keeps the one before).
    static func databaseTimelines(of scenario: Scenario, devices: [ScenarioResult.Device], actions: [ScenarioAction])
        -> [DeviceID: [(from: Duration, database: AttributeDatabase)]]
    {
        var result: [DeviceID: [(from: Duration, database: AttributeDatabase)]] = [:]
        for (index, peripheral) in scenario.world.enumerated() where peripheral.inspector == nil {
            // try?: the scenario ran, so its peripherals were built and laid out; one that was not has no timeline
            guard let spec = try? ScenarioBuiltIns.spec(for: peripheral, at: index),
                let initial = try? AttributeDatabase(spec.gattDefinition)  // try?: as above
            else { continue }
            var timeline = [(from: Duration.zero, database: initial)]
            for action in actions where action.device == spec.name || action.device == spec.id.description {
                switch action.kind {
                case .reset:
                    timeline.append((action.at.duration, initial))
                case .changeDatabase:
                    var services: [Service] = []
                    for service in action.services ?? [] {
                        // try?: the run changed the database with these services, so they were built then
                        guard let built = try? ScenarioBuiltIns.service(service) else { continue }
                        services.append(built)
                    }
                    // try?: a change the radio refused (and traced) left the database as it was: no new entry
                    guard let changed = try? AttributeDatabase(spec.gattDefinition(services: services)) else {
                        continue
                    }
                    timeline.append((action.at.duration, changed))
                default: break
                }
            }
            result[spec.id] = timeline
        }
        return result
    }

    /// The database `device` serves at `time`, and whether it changed within `span` (a request and its
    /// answer around a change cannot be judged against either database).
    func database(of device: DeviceID, at time: Duration, steadyOver span: ClosedRange<Duration>) -> AttributeDatabase?
    {
        guard let timeline = databases[device],
            !timeline.contains(where: { $0.from > .zero && span.contains($0.from) })
        else { return nil }
        return timeline.last { $0.from <= time }?.database
    }
}
