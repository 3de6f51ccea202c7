import Airlink
import AirlinkCore
import AirlinkRegistry
import AirlinkSimulation

/// Checks a finished run: the scenario's expectations, the built-in invariants, and its statistics.
struct ScenarioEvaluation {
    let scenario: Scenario
    let resolved: ResolvedScenario
    let recorder: ScenarioRecorder
    let trace: SimulationTrace
    let end: Duration
    /// The value handle of a characteristic of a device at the end of the run.
    let handle: (DeviceID, ScenarioCharacteristicRef) -> ATTHandle?

    private var events: [ScenarioEventRecord] { recorder.events }

    // MARK: Expectations

    /// Each expectation, held or not, and why; `oracle(name)` gives what an `oracle` expectation's oracle found
    /// wrong in the run.
    func expectations(oracle violations: (String) -> [String]) -> [ScenarioResult.Expectation] {
        let events = self.events
        let values = recorder.values
        return scenario.expect.enumerated().map { index, expectation in
            let device = resolved.expectationDevices[index]
            let (held, reason) =
                if case .oracle(let name) = expectation.kind {
                    Self.verdict(violations(name))
                } else {
                    check(expectation, index: index, device: device, events: events, values: values)
                }
            return ScenarioResult.Expectation(description: expectation.description, held: held, reason: reason)
        }
    }

    private static func verdict(_ violations: [String]) -> (Bool, String) {
        violations.isEmpty ? (true, "no violation") : (false, violations.joined(separator: "; "))
    }

    private func inWindow(_ time: Duration, _ expectation: ScenarioExpectation) -> Bool {
        if let by = expectation.by?.duration, time > by { return false }
        if let after = expectation.after?.duration, time < after { return false }
        return true
    }

    private func countCheck(_ found: Int, _ expectation: ScenarioExpectation, _ what: String, firstTime: Duration?)
        -> (Bool, String)
    {
        let window = [expectation.after.map { "after \($0)" }, expectation.by.map { "by \($0)" }].compactMap { $0 }
            .joined(separator: " ")
        let when = window.isEmpty ? "" : " \(window)"
        let first = firstTime.map { ", first at t=\($0.scenarioText)" } ?? ""
        if let count = expectation.count {
            return (found == count, "\(found) \(what)\(when) (expected exactly \(count))\(first)")
        }
        if let atMost = expectation.atMost, found > atMost {
            return (false, "\(found) \(what)\(when) (expected at most \(atMost))\(first)")
        }
        let atLeast = expectation.atLeast ?? (expectation.atMost == nil ? 1 : 0)
        return (found >= atLeast, "\(found) \(what)\(when) (expected at least \(atLeast))\(first)")
    }

    private func check(
        _ expectation: ScenarioExpectation, index: Int, device: DeviceID?, events: [ScenarioEventRecord],
        values: [ScenarioObservedValue]
    ) -> (Bool, String) {
        switch expectation.kind {
        case .event(let name):
            let matching = events.filter {
                $0.name == name && (device == nil || $0.event.device == device) && inWindow($0.time, expectation)
            }
            return countCheck(matching.count, expectation, "\(name) event(s)", firstTime: matching.first?.time)
        case .gaveUpAfter(let attempts):
            guard
                let gaveUp = events.firstIndex(where: {
                    $0.name == "gaveUp" && (device == nil || $0.event.device == device)
                })
            else { return (false, "never gave up") }
            let lostIndex = events[..<gaveUp].lastIndex {
                $0.name == "lost" && $0.event.device == events[gaveUp].event.device
            }
            let made = events[(lostIndex ?? 0)..<gaveUp].filter {
                $0.name == "willReconnect" && $0.event.device == events[gaveUp].event.device
            }.count
            let when = events[gaveUp].time
            if !inWindow(when, expectation) {
                return (
                    false, "gave up at t=\(when.scenarioText), outside the expected window, after \(made) attempt(s)"
                )
            }
            return (
                made == attempts, "gave up at t=\(when.scenarioText) after \(made) attempt(s) (expected \(attempts))"
            )
        case .value(let reference, let value):
            let observed = values.filter {
                $0.characteristic == reference.characteristic.uuid && $0.service == reference.service.uuid
                    && (device == nil || $0.device == device)
            }
            let matching = observed.filter { $0.bytes == value.bytes && inWindow($0.time, expectation) }
            var (held, reason) = countCheck(
                matching.count, expectation, "observation(s) of \(value.type.text(of: value.bytes))",
                firstTime: matching.first?.time)
            if !held, let last = observed.last {
                reason += "; last observed \(value.type.text(of: last.bytes)) at t=\(last.time.scenarioText)"
            }
            return (held, reason)
        case .notifications(let reference):
            let matching = values.filter {
                $0.notified && $0.characteristic == reference.characteristic.uuid
                    && (device == nil || $0.device == device)
                    && inWindow($0.time, expectation)
            }
            return countCheck(matching.count, expectation, "notification(s)", firstTime: matching.first?.time)
        case .oracle:
            preconditionFailure("an oracle expectation is judged on the run's result, by expectations(oracle:)")
        case .noNotificationLost(let reference):
            return checkNothingLost(reference, device: device, events: events, values: values)
        case .observed(let identifier, _), .written(let identifier, _):
            guard let value = resolved.inspectedExpectations[index] else { return (false, "no value to compare") }
            let written = if case .written = expectation.kind { true } else { false }
            let seen = recorder.inspected.filter {
                $0.identifier == identifier && ($0.source == .written) == written
                    && (device == nil || $0.device == device)
            }
            let matching = seen.filter { $0.value == value && inWindow($0.time, expectation) }
            var (held, reason) = countCheck(
                matching.count, expectation, "\(written ? "write(s)" : "observation(s)") of \(identifier) = \(value)",
                firstTime: matching.first?.time)
            if !held, let last = seen.last {
                reason += "; last \(last.source.rawValue) \(last.value) at t=\(last.time.scenarioText)"
            }
            return (held, reason)
        }
    }

    /// Every notification on air reached the app, nothing was missed by its observer, and (with a
    /// `step`) consecutive values outside outages differ by exactly the step.
    private func checkNothingLost(
        _ reference: ScenarioCharacteristicRef, device: DeviceID?, events: [ScenarioEventRecord],
        values: [ScenarioObservedValue]
    ) -> (Bool, String) {
        let received = values.filter {
            $0.notified && $0.characteristic == reference.characteristic.uuid && (device == nil || $0.device == device)
        }
        let missed = received.reduce(0) { $0 + $1.missedBefore }
        if missed > 0 { return (false, "the app's observer missed \(missed) value(s) (buffer overflow)") }
        var problems: [String] = []
        if let device = device ?? resolved.clients.first?.device, let handle = handle(device, reference) {
            let onAir = trace.records.filter { record in
                guard case .attPDU(_, device, .toCentral, .handleValueNotification(handle, _), _) = record.event
                else { return false }
                return true
            }.count
            if onAir != received.count {
                problems.append("\(onAir) notification(s) on air but \(received.count) reached the app")
            }
        }
        let outages = self.outages(device: device, characteristic: reference.characteristic.uuid, events: events)
        if let step = reference.step, let type = reference.type {
            for (previous, next) in zip(received, received.dropFirst()) {
                let crossesOutage = outages.contains { $0.lowerBound >= previous.time && $0.lowerBound <= next.time }
                guard !crossesOutage else { continue }
                let expected = ScenarioBuiltIns.add(step, to: previous.bytes, as: type)
                if expected != next.bytes {
                    problems.append(
                        "at t=\(next.time.scenarioText) got \(type.text(of: next.bytes)) "
                            + "after \(type.text(of: previous.bytes)) "
                            + "with no outage between (expected \(type.text(of: expected)))")
                    break
                }
            }
        }
        if received.isEmpty { problems.append("no notification reached the app") }
        let outageText = outages.map { "t=\($0.lowerBound.scenarioText)–\($0.upperBound.scenarioText)" }.joined(
            separator: ", ")
        let summary = "\(received.count) notification(s) received, outages: \(outageText.isEmpty ? "none" : outageText)"
        return problems.isEmpty ? (true, summary) : (false, problems.joined(separator: "; ") + "; " + summary)
    }

    /// Spans from a loss to the restoration of the characteristic's notifications (or the end of the run).
    func outages(device: DeviceID?, characteristic: BluetoothUUID, events: [ScenarioEventRecord]) -> [ClosedRange<
        Duration
    >] {
        var result: [ClosedRange<Duration>] = []
        var start: Duration?
        for record in events where device == nil || record.event.device == device {
            switch record.event {
            case .connection(_, .lost):
                if start == nil { start = record.time }
            case .services(_, .notificationsRestored(_, let restored, _)) where restored == characteristic:
                if let begin = start { result.append(begin...record.time) }
                start = nil
            case .connection(_, .gaveUp), .connection(_, .terminated):
                if let begin = start { result.append(begin...end) }
                start = nil
            default: break
            }
        }
        if let start { result.append(start...end) }
        return result
    }

    // MARK: Invariants

    func invariantViolations() -> [String] {
        var violations: [String] = []
        for operation in recorder.operations {
            if operation.completions.count > 1 {
                violations.append(
                    "duplicate callback: \(operation.name) started at t=\(operation.start.scenarioText) completed "
                        + "\(operation.completions.count) times")
            }
            if let completion = operation.completions.first {
                if completion.time - operation.start > operation.timeout {
                    violations.append(
                        "\(operation.name) started at t=\(operation.start.scenarioText) took "
                            + "\((completion.time - operation.start).scenarioText), more than its timeout "
                            + "\(operation.timeout.scenarioText)")
                }
            } else if end - operation.start > operation.timeout {
                violations.append(
                    "\(operation.name) started at t=\(operation.start.scenarioText) never completed (timeout "
                        + "\(operation.timeout.scenarioText))")
            }
        }
        var up: [AppDevice: Bool] = [:]
        var terminal: [AppDevice: ScenarioEventRecord] = [:]
        for record in events {
            guard case .connection(let id, let event) = record.event else { continue }
            let device = AppDevice(app: record.app, device: id)
            if let last = terminal[device], event.name != "connected", event.name != "failedToConnect" {
                violations.append(
                    "\(device): \(event.name) at t=\(record.time.scenarioText) after the terminal \(last.name) at "
                        + "t=\(last.time.scenarioText)")
                continue
            }
            switch event {
            case .connected, .reconnected:
                if up[device] == true {
                    violations.append(
                        "duplicate callback: \(device) \(event.name) at t=\(record.time.scenarioText) while connected")
                }
                up[device] = true
                terminal[device] = nil
            case .lost:
                if up[device] != true {
                    violations.append(
                        "duplicate callback: \(device) lost at t=\(record.time.scenarioText) while not connected")
                }
                up[device] = false
            case .gaveUp, .terminated:
                up[device] = false
                terminal[device] = record
            default: break
            }
        }
        return violations
    }

    /// Each app's registry agrees with the connections it made (``RegistryAgreement``), its forgets included;
    /// `records` holds each app's registry, in the order of the apps.
    func registryViolations(_ records: [[ConnectionRecord]]) -> [String] {
        records.enumerated().flatMap { index, records in
            let app = index + 1
            return RegistryAgreement.violations(
                events: events.filter { $0.app == app },
                forgets: RegistryAgreement.forgets(in: recorder.operations.filter { $0.app == app }), records: records
            ).map { app == 1 ? $0 : "app\(app): \($0)" }
        }
    }

    // MARK: Statistics

    func statistics() -> ScenarioResult.Statistics {
        var reconnectTimes: [Duration] = []
        var lostAt: [AppDevice: Duration] = [:]
        var attempts = 0
        var losses = 0
        for record in events {
            guard case .connection(let id, let event) = record.event else { continue }
            let device = AppDevice(app: record.app, device: id)
            switch event {
            case .lost:
                lostAt[device] = record.time
                losses += 1
            case .reconnected:
                if let start = lostAt.removeValue(forKey: device) { reconnectTimes.append(record.time - start) }
            case .willReconnect: attempts += 1
            default: break
            }
        }
        let records = trace.records
        return ScenarioResult.Statistics(
            reconnectTimes: reconnectTimes, losses: losses, reconnectionAttempts: attempts,
            notificationsReceived: recorder.values.filter(\.notified).count
                + recorder.inspected.filter { $0.source == .notified }.count,
            attPDUs: records.filter { $0.event.category == "att" }.count, traceLines: records.count)
    }
}

/// A device as one app sees it: apps sharing the adapter each have their own connection to it.
struct AppDevice: Hashable, CustomStringConvertible {
    /// The app, from 1.
    var app: Int
    /// The device.
    var device: DeviceID

    /// `C0:FF:EE:00:00:01` for the first app, `app2 C0:FF:EE:00:00:01` for another.
    var description: String { app == 1 ? "\(device)" : "app\(app) \(device)" }
}
