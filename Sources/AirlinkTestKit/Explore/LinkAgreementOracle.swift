import Airlink
import AirlinkCore

/// Every app's connection agrees with the adapter's link: when a link goes down on air (the radio's
/// `disconnected`), each app whose connection to the device was up over it reports the end (`lost`, or
/// `terminated` when the app was disconnecting) within a second.
///
/// The Transport contract makes `disconnected` the last event of a link, heard by every client of the adapter;
/// the connection's definition makes a loss of an established link a `lost`. With several apps the link is the
/// adapter's (one app's `disconnect()` takes it down for all, as `Device1.Disconnect` does), so an app whose
/// `connect` found another app's link must still see its end.
public struct LinkAgreementOracle: ExplorationOracle {
    /// `links`.
    public var name: String { "links" }

    /// Creates the oracle.
    public init() {}

    /// How long after the link's end the app's event may come.
    static let slack: Duration = .seconds(1)

    /// Connections that stayed up after their link went down, per app and device.
    public func violations(in observation: ExplorationObservation) -> [String] {
        var downs: [DeviceID: [Duration]] = [:]
        for record in observation.records {
            if case .disconnected(0, let device, _) = record.event {
                downs[device, default: []].append(record.time.offset)
            }
        }
        return observation.eachApp { app in
            app.connectionClients.flatMap { client in
                violations(of: client.device, downs: downs[client.device] ?? [], in: app)
            }
        }
    }

    private func violations(of device: DeviceID, downs: [Duration], in observation: ExplorationObservation)
        -> [String]
    {
        let events = observation.connectionEvents(of: device).filter { _, event in
            switch event {
            case .willReconnect: false
            default: true
            }
        }
        var violations: [String] = []
        for down in downs where down + Self.slack < observation.end {
            let before = events.last { $0.time < down }
            guard let before, before.event.isEstablished else { continue }
            let ended = events.contains { time, event in
                time >= down && time <= down + Self.slack && (event == .terminated || event.isLoss)
            }
            if !ended {
                violations.append(
                    "\(device): the link went down on air at t=\(down.scenarioText), but the app's connection "
                        + "(\(before.event.name) at t=\(before.time.scenarioText)) reported no loss within "
                        + Self.slack.scenarioText)
            }
        }
        return violations
    }
}

extension ConnectionEvent {
    /// `connected` or `reconnected`: the connection is up from this event.
    fileprivate var isEstablished: Bool {
        switch self {
        case .connected, .reconnected: true
        default: false
        }
    }

    /// `lost`.
    fileprivate var isLoss: Bool {
        if case .lost = self { return true }
        return false
    }
}
