import Airlink
import AirlinkCore
import AirlinkRegistry

/// The registry agrees with the connections, from the registry's definition: a device's record counts
/// every `connected` and `reconnected` since the app last forgot the device (or since the start), and a
/// device with none has no record.
///
/// A connection at the very instant of a forget may count either way (the two are concurrent), or within
/// `window` of it on a real transport.
enum RegistryAgreement {
    /// The disagreements between `records` (the registry at the end) and the connection `events`, given
    /// the times the app forgot each device.
    static func violations(
        events: [ScenarioEventRecord], forgets: [DeviceID: [Duration]], records: [ConnectionRecord],
        window: Duration = .zero
    ) -> [String] {
        var devices: [DeviceID] = []
        var connections: [DeviceID: [Duration]] = [:]
        for record in events {
            guard case .connection(let device, let event) = record.event else { continue }
            if connections[device] == nil {
                devices.append(device)
                connections[device] = []
            }
            switch event {
            case .connected, .reconnected: connections[device, default: []].append(record.time)
            default: break
            }
        }
        var violations: [String] = []
        for record in records where connections[record.id] == nil {
            violations.append("the registry remembers \(record.id), which never connected")
        }
        for device in devices {
            let times = connections[device] ?? []
            let forgot = forgets[device]?.max()
            let fewest = times.filter { forgot == nil || $0 > forgot! + window }.count
            let most = times.filter { forgot == nil || $0 >= forgot! - window }.count
            let record = records.first { $0.id == device }
            let recorded = record?.connectionCount ?? 0
            guard !(fewest...most).contains(recorded) else { continue }
            let since = forgot.map { " since it was forgotten at t=\($0.scenarioText)" } ?? ""
            let expected = fewest == most ? "\(fewest)" : "\(fewest) or \(most)"
            violations.append(
                record == nil
                    ? "the registry has no record of \(device), which connected \(expected) time(s)\(since)"
                    : "the registry counts \(recorded) connection(s) of \(device), the run made \(expected)\(since)")
        }
        return violations
    }

    /// When the app forgot each device: the starts of its `forget` operations.
    static func forgets(in operations: [ScenarioOperationRecord]) -> [DeviceID: [Duration]] {
        var forgets: [DeviceID: [Duration]] = [:]
        for operation in operations where operation.name.hasPrefix("forget ") {
            // try?: the runner names a forget after a device id it parsed; another operation is no forget to count
            guard let device = try? DeviceID(parsing: String(operation.name.dropFirst("forget ".count))) else {
                continue
            }
            forgets[device, default: []].append(operation.start)
        }
        return forgets
    }
}
