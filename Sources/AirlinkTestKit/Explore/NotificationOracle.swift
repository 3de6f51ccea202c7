import Airlink
import AirlinkCore
import AirlinkSimulation

/// Notifications, from the definition of a subscription: what the peripheral sent on air reaches the app in order, each
/// once, and gaps are explained.
///
/// Per device (the explorer's peripherals notify one characteristic each), the values the app was notified of must be
/// the values notified on air (`ATT_HANDLE_VALUE_NTF` records), in the same order, with nothing the air did not carry
/// and nothing twice. A value on air the app did not get is allowed only before its subscription completed, during an
/// outage (from `lost` or `servicesChanged` to `notificationsRestored`; after `notificationsRestoreFailed` the outage
/// lasts), from the app's call to `disconnect()` (it gives the subscriptions up at once, before the link is down),
/// after `terminated` or `gaveUp`, or when the next value counts it in `missedBefore`. No value reaches the app after
/// `terminated`. After `reconnected`, a subscription is restored or reported as failed before the next loss, within the
/// ATT transaction timeout (counted from the reconnection, or from the last request sent within it: that request's own
/// timeout closes the link), unless a call of the app's that sets the notifications is answered within it (a
/// restoration leaves the characteristic to that call). The stream of values ends when the link is lost for good
/// (`gaveUp`, or `lost` with a strategy that makes no attempt: ``/Airlink/DeviceService/values(of:)``), within a
/// second, or at `terminated` (the app's `disconnect()`); it does not end before. (After `terminated` it may also stay
/// open for a later `connect`.) Once a stream ended, nothing more reaches it: values on air after its end (a later
/// `connect` restores the subscription on air) are the app's to follow with a new stream.
///
/// Per app and client entry: each entry follows its own stream of values. One app's `disabled` does not stop
/// another app's values (the adapter keeps them on while one app wants them); another entry of the same app
/// disabling them turns them off for that app, an excused gap.
public struct NotificationOracle: ExplorationOracle {
    /// `notifications`.
    public var name: String { "notifications" }

    /// How much earlier than its recorded time an outage may have begun: zero on the virtual radio, where
    /// events carry the instant they happened; on a real transport, the time an event takes from the
    /// transport to the recorder (a value the transport dropped just before it announced the outage was
    /// sent before the announcement's recorded time).
    public var latency: Duration

    /// Creates the oracle; `latency` widens each outage back from its recorded start.
    public init(latency: Duration = .zero) { self.latency = latency }

    /// How long a restoration may take after a reconnection: the ATT transaction timeout.
    static let restorationTimeout: Duration = .seconds(30)

    /// How long after the link is lost for good its streams may take to end.
    static let streamEndSlack: Duration = .seconds(1)

    /// Values out of order, duplicated, invented or lost without reason, per device.
    public func violations(in observation: ExplorationObservation) -> [String] {
        observation.eachApp(appViolations)
    }

    private func appViolations(in observation: ExplorationObservation) -> [String] {
        var violations: [String] = []
        for client in observation.clients where !client.subscribed.isEmpty {
            let device = client.device
            let subscription = observation.operations.first { operation in
                operation.name.hasPrefix("subscribe") && client.owns(operation.client)
                    && client.subscribed.contains { operation.name.uppercased().contains($0) }
            }
            // What was on air before the app asked cannot reach its subscription (another app's may have had it):
            // left out, so that a value the peripheral repeats later (after a reset) is matched to its own sending.
            let asked = subscription?.start ?? .zero
            let onAir: [(time: Duration, bytes: [UInt8])] = observation.records.compactMap { record in
                guard case .attPDU(_, device, .toCentral, .handleValueNotification(_, let value), _) = record.event,
                    record.time.offset >= asked
                else { return nil }
                return (record.time.offset, value)
            }
            let received = observation.values.filter {
                $0.notified && $0.device == device && client.owns($0.client)
            }
            // A subscribe that failed subscribed nothing: no value on air was owed to the app.
            let subscribed = subscription?.completions.first.flatMap { $0.outcome == "ok" ? $0.time : nil }
            var excused = self.excused(device, subscribedAt: subscribed, observation)
            // The app's disconnect() gives its subscriptions up at the call, before the link is down.
            for operation in observation.operations where operation.name == "disconnect \(device)" {
                excused.spans.append(operation.start..<(observation.end + .seconds(1)))
            }
            // Another entry of the app for the device unsubscribing turns them off for the whole app.
            for other in observation.clients where other.device == device && other.entry != client.entry {
                if let unsubscribed = other.unsubscribeAt, unsubscribed <= observation.end, !other.subscribed.isEmpty {
                    excused.spans.append(unsubscribed..<(observation.end + .seconds(1)))
                }
            }
            // A stream that ended receives nothing more (the app asks for a new one to follow a later connection).
            if let ended = observation.streamEnds.first(where: { $0.device == device && client.owns($0.client) }) {
                excused.spans.append(ended.time..<(observation.end + .seconds(1)))
            }
            if let unsubscribed = client.unsubscribeAt, unsubscribed <= observation.end {  // no more values wanted
                excused.spans.append(unsubscribed..<(observation.end + .seconds(1)))
                violations += restoredAfterUnsubscribing(client, observation)
            }
            var next = 0
            var unexplained: [Duration] = []
            for value in received {
                let at = "\(device): notified \(ScenarioValueType.hex(value.bytes)) at t=\(value.time.scenarioText)"
                if let ended = excused.terminated.first(where: { $0.contains(value.time) }) {
                    violations.append("\(at) after terminated at t=\(ended.lowerBound.scenarioText)")
                }
                guard let match = Self.sending(of: value, in: onAir, from: next, excused: excused.spans) else {
                    violations.append("\(at): not on air after the previous value (a duplicate, reordered or invented)")
                    continue
                }
                let skipped = onAir[next..<match].map(\.time).filter { time in
                    !excused.spans.contains { $0.contains(time) }
                }
                if skipped.count > value.missedBefore { unexplained += skipped.dropFirst(value.missedBefore) }
                next = match + 1
            }
            let late = onAir[next...].map(\.time).filter { time in
                time < observation.end && !excused.spans.contains { $0.contains(time) }
            }
            if let first = (unexplained + late).first {
                violations.append(
                    "\(device): \(unexplained.count + late.count) value(s) on air never reached the app, outside "
                        + "outages and not counted as missed, the first at t=\(first.scenarioText)")
            }
            if let completed = subscription?.completions.first, completed.outcome == "ok" {
                violations += restorations(client, subscribedAt: completed.time, observation)
            }
            if let subscription { violations += streamEnd(client, since: subscription.start, observation) }
        }
        return violations
    }

    /// The on-air value (index from `start`) a received value matches: the first with its bytes sent by then,
    /// unless that one fell in an outage (`excused`) and the same bytes were sent again after it, with nothing the
    /// app had to receive between: then the later sending. (A burst repeats one value: the copy sent in the
    /// app's outage, which it may miss, is not the one it received after.)
    static func sending(
        of value: ScenarioObservedValue, in onAir: [(time: Duration, bytes: [UInt8])], from start: Int,
        excused: [Range<Duration>]
    ) -> Int? {
        var match: Int?
        var index = start
        while index < onAir.count, onAir[index].time <= value.time {
            let inOutage = excused.contains { $0.contains(onAir[index].time) }
            if onAir[index].bytes == value.bytes {
                if match == nil { match = index }
                if !inOutage { return index }
            } else if match != nil, !inOutage {
                break
            }
            index += 1
        }
        return match
    }

    /// When a value on air may fail to reach the app: before the subscription, in outages, after the end.
    /// `terminated` spans from each `terminated` to the next `connected` (the app's later `connect`, which
    /// may subscribe again), or past the end: no value reaches the app in them.
    private func excused(_ device: DeviceID, subscribedAt: Duration?, _ observation: ExplorationObservation)
        -> (spans: [Range<Duration>], terminated: [Range<Duration>])
    {
        let subscribed = subscribedAt ?? observation.end
        var spans: [Range<Duration>] = [.zero..<(subscribed + .milliseconds(1))]
        var start: Duration?
        var terminatedAt: Duration?
        var terminated: [Range<Duration>] = []
        for record in observation.events where record.event.device == device {
            switch record.event {
            case .connection(_, .lost), .services(_, .changed):
                if start == nil { start = record.time - latency }
            case .services(_, .notificationsRestored):  // a failed restoration leaves the outage open
                if let begin = start { spans.append(begin..<(record.time + .milliseconds(1))) }
                start = nil
            case .connection(_, .terminated), .connection(_, .gaveUp):
                spans.append((start ?? record.time - latency)..<(observation.end + .seconds(1)))
                start = nil
                if case .connection(_, .terminated) = record.event, terminatedAt == nil { terminatedAt = record.time }
            case .connection(_, .connected):  // the app connected again after the end: values may come again
                if let ended = terminatedAt { terminated.append(ended..<record.time) }
                terminatedAt = nil
            default: break
            }
        }
        if let start { spans.append(start..<(observation.end + .seconds(1))) }
        if let terminatedAt { terminated.append(terminatedAt..<(observation.end + .seconds(1))) }
        return (spans, terminated)
    }

    /// After each reconnection, the subscription is restored (or its failure reported) before the next loss.
    /// (A reconnection before the subscription completed has nothing to restore: the subscribe itself ran on
    /// the link it brought. Nor has one after the connection the app subscribed on ended: the app's
    /// `disconnect()`, `terminated` or `gaveUp` ends its subscriptions, and a later `connect` is a new connection.)
    private func restorations(
        _ client: ExplorationObservation.Client, subscribedAt: Duration, _ observation: ExplorationObservation
    ) -> [String] {
        var violations: [String] = []
        let events = observation.events.filter { $0.event.device == client.device }
        let ends =
            events.compactMap { record -> Duration? in
                switch record.event {
                case .connection(_, .terminated), .connection(_, .gaveUp): record.time
                default: nil
                }
            }
            + observation.operations.filter { $0.name == "disconnect \(client.device)" }.map(\.start)
        for (index, record) in events.enumerated() {
            guard case .connection(_, .reconnected) = record.event, record.time >= subscribedAt else { continue }
            if ends.contains(where: { $0 >= subscribedAt && $0 <= record.time }) { continue }
            if let unsubscribed = client.unsubscribeAt, record.time >= unsubscribed { continue }
            if appUnsubscribed(client, at: record.time, observation) { continue }
            // A request the restoration sent that is never answered closes the link at its own ATT timeout, which
            // may be after the reconnection's: that loss ends the restoration too.
            let lastRequest = observation.records.last { request in
                guard case .attPDU(_, client.device, .toPeripheral, _, _) = request.event else { return false }
                return request.time.offset >= record.time
                    && request.time.offset <= record.time + Self.restorationTimeout
            }
            let deadline = max(record.time, lastRequest?.time.offset ?? record.time) + Self.restorationTimeout
            guard deadline < observation.end else { continue }
            let answered = events[(index + 1)...].prefix { record in
                if case .connection(_, .lost) = record.event { return false }
                if case .connection(_, .terminated) = record.event { return false }
                return true
            }.contains { record in
                switch record.event {
                case .services(_, .notificationsRestored), .services(_, .notificationsRestoreFailed): true
                default: false
                }
            }
            let cut = events[(index + 1)...].contains { record in
                if case .connection(_, .lost) = record.event { return record.time <= deadline }
                if case .connection(_, .terminated) = record.event { return record.time <= deadline }
                return false
            }
            // A restoration leaves a characteristic to the app's own call when the app changes its choice
            // meanwhile (``/Airlink/DeviceService/restoreNotifications``): that call's answer is the answer.
            let answeredByTheApp = appChanged(client, between: record.time, and: deadline, observation)
            if !answered && !answeredByTheApp && !cut {
                violations.append(
                    "\(client.device): reconnected at t=\(record.time.scenarioText) but the subscription was "
                        + "neither restored nor reported as failed within \(Self.restorationTimeout.scenarioText)")
            }
        }
        return violations
    }

    /// Whether the app had the client's device's notifications off at `time`: its last successful subscribe or
    /// unsubscribe before then, by any of its entries for the device (they share one setting), was an unsubscribe.
    private func appUnsubscribed(
        _ client: ExplorationObservation.Client, at time: Duration, _ observation: ExplorationObservation
    ) -> Bool {
        guard client.entry != nil else { return false }
        let entries = observation.clients.filter { $0.device == client.device }.compactMap(\.entry)
        let changes = observation.operations.filter { operation in
            entries.contains(operation.client)
                && (operation.name.hasPrefix("subscribe ") || operation.name.hasPrefix("unsubscribe "))
        }.compactMap { operation -> (time: Duration, off: Bool)? in
            guard let done = operation.completions.first(where: { $0.outcome == "ok" }), done.time <= time else {
                return nil
            }
            return (done.time, operation.name.hasPrefix("unsubscribe "))
        }
        return changes.max { $0.time < $1.time }?.off ?? false
    }

    /// Whether a call of the app's that sets the client's device's notifications (a subscribe or an unsubscribe by
    /// any of its entries for the device: they share one setting) was under way or began after `start`, and was
    /// answered, whatever its outcome, by `end`.
    private func appChanged(
        _ client: ExplorationObservation.Client, between start: Duration, and end: Duration,
        _ observation: ExplorationObservation
    ) -> Bool {
        // Without entries the operations do not say their device: none counts.
        guard client.entry != nil else { return false }
        let entries = observation.clients.filter { $0.device == client.device }.compactMap(\.entry)
        return observation.operations.contains { operation in
            guard entries.contains(operation.client),
                operation.name.hasPrefix("subscribe ") || operation.name.hasPrefix("unsubscribe "),
                let done = operation.completions.first
            else { return false }
            return done.time >= start && done.time <= end
        }
    }

    /// After the app unsubscribed (successfully), Airlink restores nothing: the choice is the app's.
    private func restoredAfterUnsubscribing(
        _ client: ExplorationObservation.Client, _ observation: ExplorationObservation
    ) -> [String] {
        // This client's: started at its `unsubscribeAt`, on a characteristic it subscribed to.
        let done = observation.operations.filter { operation in
            operation.start == client.unsubscribeAt && operation.name.hasPrefix("unsubscribe ")
                && client.subscribed.contains(String(operation.name.dropFirst("unsubscribe ".count)).uppercased())
        }.compactMap { operation in operation.completions.first { $0.outcome == "ok" }?.time }
        guard let unsubscribed = done.max() else { return [] }
        return observation.events.filter { record in
            guard record.time > unsubscribed, record.event.device == client.device,
                case .services(_, .notificationsRestored) = record.event
            else { return false }
            // Another entry of the app may have turned them on again since (they share one setting).
            return client.entry == nil || appUnsubscribed(client, at: record.time, observation)
        }.prefix(1).map { record in
            "\(client.device): notifications restored at t=\(record.time.scenarioText) after the app disabled them "
                + "at t=\(unsubscribed.scenarioText)"
        }
    }

    /// The values stream ends when, and only when, the link is lost for good, or at `terminated` (the app's
    /// `disconnect()` ends its streams) after the stream was asked for (`since`, when its subscribe started).
    private func streamEnd(
        _ client: ExplorationObservation.Client, since asked: Duration, _ observation: ExplorationObservation
    ) -> [String] {
        let device = client.device
        // The connection's strategy: an app's later entry for the device set it for both.
        let strategy = observation.connectionClients.first { $0.device == device }?.reconnection ?? client.reconnection
        let ended = observation.streamEnds.first { $0.device == device && client.owns($0.client) }
        if let ended,
            observation.connectionEvents(of: device).contains(where: { time, event in
                event == .terminated && time >= asked && time <= ended.time
            })
        {
            return []
        }
        // A loss before the stream was asked for ended an earlier connection, not this stream's.
        let final = observation.connectionEvents(of: device).first { time, event in
            guard time >= asked else { return false }
            switch event {
            case .gaveUp: return true
            case .lost: return strategy.attempts == 0
            default: return false
            }
        }
        switch (final, ended) {
        case (let final?, nil) where final.time + Self.streamEndSlack < observation.end:
            return [
                "\(device): the values stream did not end after \(final.event.name) at t=\(final.time.scenarioText)"
            ]
        case (let final?, let ended?) where ended.time > final.time + Self.streamEndSlack:
            return [
                "\(device): the values stream ended at t=\(ended.time.scenarioText), long after "
                    + "\(final.event.name) at t=\(final.time.scenarioText)"
            ]
        case (nil, let ended?)
        where !observation.connectionEvents(of: device).contains(where: { $0.event == .terminated }):
            return [
                "\(device): the values stream ended at t=\(ended.time.scenarioText) with the link not lost for good"
            ]
        // On a real transport the stream's end and the event reach the recorder by different paths: `latency`.
        case (let final?, let ended?) where ended.time + latency < final.time:
            return [
                "\(device): the values stream ended at t=\(ended.time.scenarioText), before "
                    + "\(final.event.name) at t=\(final.time.scenarioText)"
            ]
        default:
            return []
        }
    }
}
