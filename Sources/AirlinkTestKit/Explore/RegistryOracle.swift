import AirlinkCore

/// The device registry agrees with the connections: at the end of the run, each device's record counts
/// every `connected` and `reconnected` since the app last forgot it (or since the start), and a device
/// with none (never connected, or forgotten since) has no record. Each app has its own registry: one app's
/// forget leaves the others' records.
public struct RegistryOracle: ExplorationOracle {
    /// `registry`.
    public var name: String { "registry" }

    /// Creates the oracle.
    public init() {}

    /// Records that disagree with the connections the run made and the forgets the app asked for.
    public func violations(in observation: ExplorationObservation) -> [String] {
        observation.eachApp { app in
            RegistryAgreement.violations(
                events: app.events, forgets: RegistryAgreement.forgets(in: app.operations), records: app.registry)
        }
    }
}
