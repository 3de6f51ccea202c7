import Airlink
import AirlinkCore

/// A device's connection events follow their definitions: nothing after a terminal event, and each
/// event only in the state it describes a change of.
///
/// `connected` and `failedToConnect` answer a connect from the app (not while connected), and a `disconnect()` while
/// that connect is pending ends it with `terminated` alone; `lost` only ends an established link; `willReconnect`,
/// `gaveUp` and `reconnected` only follow a loss; after `gaveUp`, `terminated` or `failedToConnect` the only event that
/// may come is a new `connected` or `failedToConnect` (the app connecting again: another client entry of the app for
/// the device, or the same entry never, in the explorer's plans), or `terminated` when the app's `disconnect()` ends
/// such a connect while it is pending; a `lost` its strategy follows with no attempt ends the connection too. Per app
/// and device: each app has its own connection to a device, whose events another app's do not change.
public struct TerminalEventOracle: ExplorationOracle {
    /// `terminal`.
    public var name: String { "terminal" }

    /// Creates the oracle.
    public init() {}

    private enum Phase { case idle, up, reconnecting, ended }

    /// Events out of place, per device.
    public func violations(in observation: ExplorationObservation) -> [String] {
        observation.eachApp(appViolations)
    }

    private func appViolations(in observation: ExplorationObservation) -> [String] {
        var violations: [String] = []
        for client in observation.connectionClients {
            var phase = Phase.idle
            var last = "nothing"
            var endedAt = Duration.zero
            for (time, event) in observation.connectionEvents(of: client.device) {
                let at = "\(client.device): \(event.name) at t=\(time.scenarioText)"
                let allowed: Bool
                switch (event, phase) {
                case (.connected, .idle), (.connected, .ended): allowed = true
                case (.failedToConnect, .idle), (.failedToConnect, .ended): allowed = true
                case (.lost, .up): allowed = true
                case (.willReconnect, .reconnecting), (.gaveUp, .reconnecting), (.reconnected, .reconnecting):
                    allowed = true
                case (.terminated, .up), (.terminated, .reconnecting): allowed = true
                // A disconnect() while the first connect is pending ends it: terminated, no failedToConnect.
                case (.terminated, .idle): allowed = true
                // So does one while a connect the app started after the connection ended is pending.
                case (.terminated, .ended): allowed = connecting(client.device, since: endedAt, at: time, observation)
                // Pairing happens on a link that is up.
                case (.paired, .up), (.pairingFailed, .up), (.bondLost, .up): allowed = true
                // A Security Request follows the link's setup, which a reconnection reports only later.
                case (.securityRequested, .up), (.securityRequested, .reconnecting): allowed = true
                default: allowed = false
                }
                if !allowed { violations.append("\(at) after \(last)") }
                switch event {
                case .connected, .reconnected: phase = .up
                // A loss no attempt follows ends the connection (an app's other part may connect again).
                case .lost: phase = client.reconnection.attempts == 0 ? .ended : .reconnecting
                case .willReconnect, .paired, .pairingFailed, .bondLost, .securityRequested: break
                case .failedToConnect, .gaveUp, .terminated: phase = .ended
                }
                if phase == .ended { endedAt = time }
                last = "\(event.name) at t=\(time.scenarioText)"
            }
        }
        return violations
    }

    /// Whether a `connect` of the app to `device`, started at or after `since`, was still pending at `time`.
    private func connecting(
        _ device: DeviceID, since: Duration, at time: Duration, _ observation: ExplorationObservation
    ) -> Bool {
        observation.operations.contains { operation in
            operation.name == "connect \(device)" && operation.start >= since && operation.start <= time
                && !operation.completions.contains { $0.time < time }
        }
    }
}
