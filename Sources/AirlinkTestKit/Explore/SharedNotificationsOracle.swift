import Airlink
import AirlinkCore
import AirlinkSimulation

/// With several apps on the adapter, one app's unsubscribe leaves another app's notifications on: a write
/// turning a Client Characteristic Configuration off reaches the peripheral only when no app wants the values.
///
/// An app wants a device's notifications from its last successful `subscribe` (any of its entries for the
/// device) until one of its entries for the device starts an `unsubscribe` or a `disconnect` (at or after the
/// subscribe started: one asked for while the subscribe was under way ends it too), its
/// connection ends (`lost`, `terminated`, `gaveUp`), or the layers tell it that they could not restore it
/// (`notificationsRestoreFailed`, after a database change): a judgement on the safe side, since a restored
/// subscription after a loss is not counted. Judged on air (`ATT_WRITE_REQ` of `00 00` to a 0x2902 descriptor
/// of the database served then), only when the run has several apps.
public struct SharedNotificationsOracle: ExplorationOracle {
    /// `shared-notifications`.
    public var name: String { "shared-notifications" }

    /// Creates the oracle.
    public init() {}

    /// CCCD writes that turned notifications off while an app still wanted them.
    public func violations(in observation: ExplorationObservation) -> [String] {
        let apps = observation.apps
        guard apps.count > 1 else { return [] }
        var violations: [String] = []
        for record in observation.records {
            guard case .attPDU(0, let device, .toPeripheral, .writeRequest(let handle, [0, 0]), _) = record.event
            else { continue }
            let time = record.time.offset
            guard let database = observation.database(of: device, at: time, steadyOver: time...time),
                database[handle]?.type == .clientCharacteristicConfiguration
            else { continue }
            for app in apps where wants(observation.scoped(toApp: app), device, at: time) {
                violations.append(
                    "\(device): notifications turned off on air at t=\(time.scenarioText) (handle \(handle)) while "
                        + "app \(app) still wanted them")
            }
        }
        return violations
    }

    private func wants(_ app: ExplorationObservation, _ device: DeviceID, at time: Duration) -> Bool {
        let entries = app.clients.filter { $0.device == device }.compactMap(\.entry)
        guard !entries.isEmpty else { return false }
        let mine = app.operations.filter { entries.contains($0.client) }
        // The subscription in force: the last one that succeeded before `time`. An unsubscribe or disconnect
        // the app started after that subscribe started ends it, even one started before the subscribe
        // completed (the layers finish the subscribe, then turn it off).
        let subscription = mine.filter { $0.name.hasPrefix("subscribe ") }.compactMap { operation in
            operation.completions.first { $0.outcome == "ok" && $0.time < time }.map { (operation.start, $0.time) }
        }.max { $0.1 < $1.1 }
        guard let (requested, subscribed) = subscription else { return false }
        let given = mine.contains { operation in
            (operation.name.hasPrefix("unsubscribe ") || operation.name.hasPrefix("disconnect "))
                && operation.start >= requested && operation.start <= time
        }
        let ended = app.connectionEvents(of: device).contains { eventTime, event in
            guard eventTime >= subscribed, eventTime <= time else { return false }
            switch event {
            case .lost, .terminated, .gaveUp: return true
            default: return false
            }
        }
        // After a database change the app's subscription is its own to restore; a failure it was told of ends it.
        let notRestored = app.events.contains { record in
            guard record.time >= subscribed, record.time <= time,
                case .services(device, .notificationsRestoreFailed) = record.event
            else { return false }
            return true
        }
        return !given && !ended && !notRestored
    }
}
