import Airlink
import AirlinkCore
import AirlinkProfiles

/// One thing the app saw, at a time of the environment's clock (virtual on the simulation).
public struct ThermostatObservation: Sendable, Hashable, CustomStringConvertible {
    /// What was seen.
    public enum Kind: Sendable, Hashable {
        /// A thermostat advertising the temperature service was found.
        case found(DiscoveredDevice)
        /// The connection reported an event (connected, lost, willReconnect, reconnected, gaveUp, ...).
        case connection(ConnectionEvent)
        /// The thermostat notified a temperature.
        case reading(ThermostatReading)
    }

    /// When, on the environment's clock.
    public var time: AirlinkInstant
    /// What.
    public var kind: Kind

    /// Creates an observation.
    public init(time: AirlinkInstant, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// `t=12.000000 reading 20.05 °C`, one line.
    public var description: String {
        switch kind {
        case .found(let device): "t=\(time) found \(device)"
        case .connection(let event): "t=\(time) connection \(event)"
        case .reading(let reading): "t=\(time) reading \(reading)"
        }
    }
}
