import AirlinkCore

/// The device registry agrees with the connections: at the end of the run, each device's record counts
/// every `connected` and `reconnected` since the app last forgot it (or since the start), and a device
/// with none (never connected, or forgotten since) has no record. Each app has its own registry: one app's
/// forget leaves the others' records.
public struct RegistryOracle: ExplorationOracle {
    /// `registry`.
    public var name: String { "registry" }

    /// How far from a forget a connection may be recorded and still count either way: zero on the virtual
    /// radio (only a connection at the forget's very instant); on a real transport, the time an event takes
    /// to reach the recorder, during which the connection's save and the forget race.
    public var window: Duration

    /// Creates the oracle; `window` widens the instant of each forget.
    public init(window: Duration = .zero) { self.window = window }

    /// Records that disagree with the connections the run made and the forgets the app asked for.
    public func violations(in observation: ExplorationObservation) -> [String] {
        observation.eachApp { app in
            RegistryAgreement.violations(
                events: app.events, forgets: RegistryAgreement.forgets(in: app.operations), records: app.registry,
                window: window)
        }
    }
}
