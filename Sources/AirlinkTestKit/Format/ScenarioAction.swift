import AirlinkCore
import AirlinkSimulation

/// One entry of a scenario's timeline: an action at a virtual time.
///
/// ```yaml
/// - at: 5s
///   do: dropLink
///   device: Thermostat
///   reason: 0x08
/// ```
public struct ScenarioAction: Sendable, Decodable {
    /// What can happen: every fault of the virtual radio, moves and value changes.
    public enum Kind: String, Sendable, Decodable, CaseIterable {
        /// The peripheral's link drops with `reason`.
        case dropLink
        /// The peripheral goes out of range: its links drop and it is no longer heard.
        case moveOutOfRange
        /// The peripheral comes back in range.
        case moveBackInRange
        /// The peripheral moves to `position` (its RSSI follows the path-loss model).
        case move
        /// The next `count` connection attempts to the peripheral fail with `failure`.
        case failNextConnects
        /// The peripheral answers matching requests with the ATT error `error`, `times` times.
        case respond
        /// The peripheral leaves matching requests unanswered, `times` times: their timeouts fire.
        case neverRespond
        /// The peripheral answers ATT requests after `delay`.
        case delayResponses
        /// The peripheral reboots: links drop and its state returns to the spec's initial values.
        case reset
        /// The peripheral's GATT database becomes `services` (new firmware); subscribed centrals get Service
        /// Changed unless `serviceChanged: false`, and the Database Hash follows unless `hash: stale`.
        case changeDatabase
        /// The peripheral notifies `count` values at once.
        case burstNotifications
        /// The peripheral stops advertising.
        case stopAdvertising
        /// The peripheral advertises again.
        case startAdvertising
        /// The central's adapter goes off: every link drops and operations fail.
        case powerOffAdapter
        /// The central's adapter comes back on.
        case powerOnAdapter
        /// A characteristic's or an inspector's value changes, notifying subscribers.
        case setValue
        /// The peripheral forgets every bond (a factory reset of its keys): a central's next encryption with its
        /// bond fails with PIN or Key Missing (Docs/Security.md).
        case forgetBonds
    }

    /// When, from the start of the run.
    public var at: ScenarioDuration
    /// What happens at `at`: the action and its arguments.
    public var kind: Kind
    /// The peripheral (its name or id); every action but the adapter's needs one.
    public var device: String?
    /// `dropLink`: the HCI reason (`0x08`, `supervision-timeout`, `remote-user-terminated`...).
    public var reason: DisconnectionReason
    /// `move`: where to.
    public var position: ScenarioPosition?
    /// `failNextConnects`, `burstNotifications`: how many; `respond`, `neverRespond`, `delayResponses`: how many times.
    public var count: Int
    /// `failNextConnects`: how (`le-connection-abort-by-local`, `in-progress`, `failed-to-establish`, `no-answer`).
    public var failure: ConnectFailure
    /// `respond`, `neverRespond`, `delayResponses`: which requests (`any`, `read`, `write`, or `mtu`:
    /// the MTU exchange).
    public var operation: ATTOperation
    /// `respond`: the ATT error.
    public var error: ATTError?
    /// `delayResponses`: by how much.
    public var delay: ScenarioDuration?
    /// `setValue`, `burstNotifications`: the characteristic.
    public var characteristic: ScenarioUUID?
    /// `setValue`: the characteristic's service, when ambiguous.
    public var service: ScenarioUUID?
    /// `setValue`: the value.
    public var value: ScenarioValue?
    /// `setValue` on an inspector: the value's identifier (instead of `characteristic`).
    public var identifier: String?
    /// `setValue` on an inspector: the value as text of its type (checked against the world's inspector).
    public var inspectedValue: String?
    /// `changeDatabase`: the new services.
    public var services: [ScenarioService]?
    /// `changeDatabase`: whether subscribed centrals are told (Service Changed), true by default;
    /// `false` is a firmware that changes its database silently.
    public var serviceChanged: Bool
    /// `changeDatabase`: what the Database Hash characteristic serves afterwards, `recomputed` (the default) or
    /// `stale` (the old database's hash: a firmware that moves handles without changing its hash).
    public var hash: FirmwareUpdate.DatabaseHash

    private enum CodingKeys: String, CodingKey {
        case at
        case kind = "do"
        case device, reason, position, count, failure, operation, error, delay, characteristic
        case service, type, value, services, times, identifier, serviceChanged, hash
    }

    /// The keys `changeDatabase` takes; any other is refused, so that a misspelt `serviceChange:` cannot
    /// silently leave a firmware announcing its change.
    static let changeDatabaseKeys = ["at", "do", "device", "services", "serviceChanged", "hash"]

    static let reasons: [(String, DisconnectionReason)] = [
        ("supervision-timeout", .supervisionTimeout), ("connection-timeout", .supervisionTimeout),
        ("remote-user-terminated", .remoteUserTerminated), ("remote-low-resources", .remoteLowResources),
        ("remote-power-off", .remotePowerOff), ("local-host-terminated", .localHostTerminated),
        ("ll-response-timeout", .llResponseTimeout), ("failed-to-establish", .failedToEstablish),
    ]

    static let failures: [(String, ConnectFailure)] = [
        ("le-connection-abort-by-local", .abortedByLocal), ("aborted-by-local", .abortedByLocal),
        ("in-progress", .alreadyInProgress), ("operation-already-in-progress", .alreadyInProgress),
        ("failed-to-establish", .failedToEstablish), ("no-answer", .noAnswer),
    ]

    /// Decodes an action, checking that it has what its kind needs.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        at = try container.decode(ScenarioDuration.self, forKey: .at)
        let kindText = try container.decode(String.self, forKey: .kind)
        guard let kind = Kind(rawValue: kindText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container,
                debugDescription: "expected an action (\(Kind.allCases.map(\.rawValue).joined(separator: ", "))), "
                    + "found '\(kindText)'")
        }
        self.kind = kind
        device = try container.decodeIfPresent(String.self, forKey: .device)
        if device == nil, kind != .powerOffAdapter, kind != .powerOnAdapter {
            throw DecodingError.keyNotFound(
                CodingKeys.device,
                .init(
                    codingPath: container.codingPath,
                    debugDescription: "`\(kind.rawValue)` needs `device:`, the peripheral's name or id"))
        }
        if let text = try container.decodeIfPresent(String.self, forKey: .reason) {
            guard let reason = Self.reason(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .reason, in: container,
                    debugDescription: "expected a disconnection reason (an HCI code such as 0x08, or "
                        + "\(Self.reasons.map(\.0).joined(separator: ", "))), found '\(text)'")
            }
            self.reason = reason
        } else {
            reason = .remoteUserTerminated
        }
        position = try container.decodeIfPresent(ScenarioPosition.self, forKey: .position)
        let counts = 1...ScenarioLimits.maximumCount
        count =
            try container.decodeCount(.count, in: counts, "a count")
            ?? container.decodeCount(.times, in: counts, "a number of times") ?? 1
        if let text = try container.decodeIfPresent(String.self, forKey: .failure) {
            guard let failure = Self.failures.first(where: { $0.0 == text.kebabCased })?.1 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .failure, in: container,
                    debugDescription:
                        "expected a connection failure (\(Self.failures.map(\.0).joined(separator: ", "))), "
                        + "found '\(text)'")
            }
            self.failure = failure
        } else {
            failure = .abortedByLocal
        }
        characteristic = try container.decodeIfPresent(ScenarioUUID.self, forKey: .characteristic)
        service = try container.decodeIfPresent(ScenarioUUID.self, forKey: .service)
        let operationText = try container.decodeIfPresent(String.self, forKey: .operation) ?? "any"
        switch operationText {
        case "any": operation = .any
        case "read": operation = .read(characteristic?.uuid)
        case "write": operation = .write(characteristic?.uuid)
        case "mtu": operation = .opcode(.exchangeMTURequest)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .operation, in: container,
                debugDescription: "expected any, read, write or mtu, found '\(operationText)'")
        }
        error = try container.decodeIfPresent(ScenarioATTError.self, forKey: .error)?.error
        delay = try container.decodeIfPresent(ScenarioDuration.self, forKey: .delay)
        identifier = try container.decodeIfPresent(String.self, forKey: .identifier)
        if identifier != nil {
            inspectedValue = try container.decodeIfPresent(String.self, forKey: .value)
        } else if let type = try container.decodeIfPresent(ScenarioValueType.self, forKey: .type) {
            value = try ScenarioValue.decodeIfPresent(type, forKey: .value, in: container)
        }
        services = try container.decodeIfPresent([ScenarioService].self, forKey: .services)
        serviceChanged = try container.decodeIfPresent(Bool.self, forKey: .serviceChanged) ?? true
        if let text = try container.decodeIfPresent(String.self, forKey: .hash) {
            guard let hash = FirmwareUpdate.DatabaseHash(rawValue: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .hash, in: container,
                    debugDescription: "expected recomputed (the new database's hash) or stale (the old one's), "
                        + "found '\(text)'")
            }
            self.hash = hash
        } else {
            hash = .recomputed
        }
        try requireParameters(container)
        if kind == .changeDatabase {
            let all = try decoder.container(keyedBy: ScenarioPathKey.self)
            if let stray = all.allKeys.map(\.stringValue).sorted().first(where: {
                !Self.changeDatabaseKeys.contains($0)
            }) {
                throw DecodingError.dataCorruptedError(
                    forKey: ScenarioPathKey(stringValue: stray), in: all,
                    debugDescription: "`changeDatabase` takes \(Self.changeDatabaseKeys.joined(separator: ", ")); "
                        + "remove `\(stray)`")
            }
        }
    }

    private func requireParameters(_ container: KeyedDecodingContainer<CodingKeys>) throws {
        func need(_ key: CodingKeys, _ present: Bool, _ what: String) throws {
            guard !present else { return }
            throw DecodingError.keyNotFound(
                key, .init(codingPath: container.codingPath, debugDescription: "`\(kind.rawValue)` needs \(what)"))
        }
        switch kind {
        case .move: try need(.position, position != nil, "`position:` (metres, or {x, y, z})")
        case .respond: try need(.error, error != nil, "`error:` (an ATT error such as read-not-permitted)")
        case .delayResponses: try need(.delay, delay != nil, "`delay:` (a duration)")
        case .changeDatabase: try need(.services, services != nil, "`services:` (the new services)")
        case .burstNotifications: try need(.characteristic, characteristic != nil, "`characteristic:`")
        case .setValue where identifier != nil:
            try need(.value, inspectedValue != nil, "`value:` (in the inspected value's type)")
        case .setValue:
            try need(.characteristic, characteristic != nil, "`characteristic:` (or `identifier:` on an inspector)")
            try need(.value, value != nil, "`type:` and `value:`")
        default: break
        }
    }

    static func reason(_ text: String) -> DisconnectionReason? {
        let text = text.trimmingWhitespace
        if let match = reasons.first(where: { $0.0 == text.kebabCased }) { return match.1 }
        if text.hasPrefix("0x"), let code = UInt8(text.dropFirst(2), radix: 16) {
            return DisconnectionReason(rawValue: code)
        }
        return UInt8(text).map(DisconnectionReason.init(rawValue:))
    }

    /// One line for the trace: `dropLink Thermostat reason=0x08`.
    var summary: String {
        var parts = [kind.rawValue]
        if let device { parts.append(device) }
        switch kind {
        case .dropLink: parts.append("reason=\(reason)")
        case .move: if let position { parts.append("to=\(position.position)") }
        case .failNextConnects: parts.append("count=\(count) failure=\(failure)")
        case .respond: parts.append("\(operation) error=\(error.map { "\($0)" } ?? "") times=\(count)")
        case .neverRespond: parts.append("\(operation) times=\(count)")
        case .delayResponses: parts.append("\(operation) by=\(delay?.description ?? "") times=\(count)")
        case .burstNotifications: parts.append("\(characteristic?.description ?? "") count=\(count)")
        case .setValue:
            if let identifier {
                parts.append("\(identifier)=\(inspectedValue ?? "")")
            } else {
                parts.append("\(characteristic?.description ?? "")=\(value?.description ?? "")")
            }
        case .changeDatabase:
            parts.append("services=\((services ?? []).map(\.uuid.description).joined(separator: ","))")
            if !serviceChanged { parts.append("silently") }
            if hash == .stale { parts.append("stale-hash") }
        default: break
        }
        return parts.joined(separator: " ")
    }
}
