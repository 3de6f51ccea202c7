import AirlinkCore

/// What must hold at the end of a run.
///
/// ```yaml
/// expect:
///   - event: reconnected        # a connection or services event name
///     device: Thermostat
///     by: 10s                   # at least once, no later than 10 s
///   - event: willReconnect
///     count: 3                  # exactly (or atLeast / atMost)
///   - gaveUpAfter: 3            # gave up after exactly 3 attempts
///   - value: {service: ..., characteristic: ..., type: temperature, equals: 23, by: 60s}
///   - noNotificationLost: {service: ..., characteristic: ...}
///   - observed: {identifier: temperature, equals: 22.5}   # the client saw an inspector's value
///   - written: {identifier: enabled, equals: false}       # an inspector accepted a central's write
///   - oracle: notifications     # the explorer's oracle of that name finds nothing wrong in the run
/// ```
public struct ScenarioExpectation: Sendable, Decodable, CustomStringConvertible {
    /// What is expected.
    public enum Kind: Sendable {
        /// An event with this name (`connected`, `lost`, `willReconnect`, `reconnected`, `gaveUp`,
        /// `terminated`, `failedToConnect`, `servicesChanged`, `notificationsRestored`, `adapterStateChanged`...).
        case event(String)
        /// The strategy gave up after this many attempts.
        case gaveUpAfter(Int)
        /// A value of a characteristic was observed (notified or read).
        case value(ScenarioCharacteristicRef, ScenarioValue)
        /// Every notification sent on air while the link was up reached the app, and no value was
        /// skipped outside outages (the time from a loss to the notifications' restoration).
        case noNotificationLost(ScenarioCharacteristicRef)
        /// At least this many notifications of a characteristic reached the app.
        case notifications(ScenarioCharacteristicRef)
        /// The client's observer saw an inspector's value (read or notified); the text is checked
        /// against the value's type when the run starts.
        case observed(identifier: String, equals: String)
        /// An inspector of the world accepted a central's write of this value.
        case written(identifier: String, equals: String)
        /// The explorer's oracle of this name (``ExplorationOracle/name``: `notifications`, `reconnection`...)
        /// finds no violation in the run. It takes no qualifier.
        case oracle(String)
    }

    /// What must hold: the condition and its arguments.
    public var kind: Kind
    /// The device (its name or id); the first client's by default.
    public var device: String?
    /// No later than this.
    public var by: ScenarioDuration?
    /// No earlier than this.
    public var after: ScenarioDuration?
    /// Exactly this many times.
    public var count: Int?
    /// At least this many times (1 for events and values when no count is given).
    public var atLeast: Int?
    /// At most this many times.
    public var atMost: Int?

    private enum CodingKeys: String, CodingKey {
        case event, gaveUpAfter, value, noNotificationLost, notifications, observed, written, oracle
        case device, by, after, count, atLeast, atMost
    }
    private enum ValueKeys: String, CodingKey { case service, characteristic, type, equals }
    private enum InspectedKeys: String, CodingKey { case identifier, equals }

    /// Decodes an expectation: exactly one of `event`, `gaveUpAfter`, `value`, `noNotificationLost`,
    /// `notifications`, `observed`, `written`, `oracle`, with the qualifiers `device`, `by`, `after`, `count`,
    /// `atLeast`, `atMost` (none for `oracle`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kinds: [CodingKeys] = [
            .event, .gaveUpAfter, .value, .noNotificationLost, .notifications, .observed, .written, .oracle,
        ]
        let present = kinds.filter(container.contains)
        guard present.count == 1, let key = present.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath,
                    debugDescription:
                        "expected exactly one of \(kinds.map(\.stringValue).joined(separator: ", "))"
                        + (present.isEmpty ? "" : "; found \(present.map(\.stringValue).joined(separator: ", "))")))
        }
        switch key {
        case .event:
            let name = try container.decode(String.self, forKey: .event)
            guard Self.eventNames.contains(name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .event, in: container,
                    debugDescription: "expected an event (\(Self.eventNames.joined(separator: ", "))), found '\(name)'")
            }
            kind = .event(name)
        case .gaveUpAfter:
            let attempts = try container.decode(Int.self, forKey: .gaveUpAfter)
            guard attempts >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .gaveUpAfter, in: container,
                    debugDescription: "expected a number of attempts of 0 or more, found \(attempts)")
            }
            kind = .gaveUpAfter(attempts)
        case .value:
            let nested = try container.nestedContainer(keyedBy: ValueKeys.self, forKey: .value)
            let type = try nested.decode(ScenarioValueType.self, forKey: .type)
            let reference = ScenarioCharacteristicRef(
                service: try nested.decode(ScenarioUUID.self, forKey: .service),
                characteristic: try nested.decode(ScenarioUUID.self, forKey: .characteristic), type: type)
            kind = .value(reference, try ScenarioValue.decode(type, forKey: .equals, in: nested))
        case .noNotificationLost:
            kind = .noNotificationLost(
                try container.decode(ScenarioCharacteristicRef.self, forKey: .noNotificationLost))
        case .observed, .written:
            let nested = try container.nestedContainer(keyedBy: InspectedKeys.self, forKey: key)
            let identifier = try nested.decode(String.self, forKey: .identifier)
            let equals = try nested.decode(String.self, forKey: .equals)
            kind =
                key == .observed
                ? .observed(identifier: identifier, equals: equals) : .written(identifier: identifier, equals: equals)
        case .oracle:
            let name = try container.decode(String.self, forKey: .oracle)
            let names = ExplorationOracles.all.map(\.name)
            guard names.contains(name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .oracle, in: container,
                    debugDescription: "expected an oracle (\(names.joined(separator: ", "))), found '\(name)'")
            }
            let qualifiers: [CodingKeys] = [.device, .by, .after, .count, .atLeast, .atMost]
            if let qualifier = qualifiers.first(where: container.contains) {
                throw DecodingError.dataCorruptedError(
                    forKey: qualifier, in: container,
                    debugDescription: "an oracle judges the whole run; drop \(qualifier.stringValue)")
            }
            kind = .oracle(name)
        default:
            kind = .notifications(try container.decode(ScenarioCharacteristicRef.self, forKey: .notifications))
        }
        device = try container.decodeIfPresent(String.self, forKey: .device)
        by = try container.decodeIfPresent(ScenarioDuration.self, forKey: .by)
        after = try container.decodeIfPresent(ScenarioDuration.self, forKey: .after)
        count = try container.decodeCount(.count, in: 0...Int.max, "a count")
        atLeast = try container.decodeCount(.atLeast, in: 0...Int.max, "a count")
        atMost = try container.decodeCount(.atMost, in: 0...Int.max, "a count")
        if let atLeast, let atMost, atLeast > atMost {
            throw DecodingError.dataCorruptedError(
                forKey: .atMost, in: container,
                debugDescription: "atLeast \(atLeast) is more than atMost \(atMost): no count can satisfy both")
        }
        if count != nil, atLeast != nil || atMost != nil {
            throw DecodingError.dataCorruptedError(
                forKey: .count, in: container,
                debugDescription: "count is an exact number; drop it, or drop atLeast and atMost")
        }
    }

    /// The event names an expectation may use.
    public static let eventNames = [
        "connected", "failedToConnect", "lost", "terminated", "willReconnect", "reconnected", "gaveUp",
        "servicesDiscovered", "servicesChanged", "notificationsChanged", "notificationsRestored",
        "notificationsRestoreFailed", "notificationsOverflowed", "adapterStateChanged", "databaseChanged",
        "databaseCacheReused", "stackCacheStale", "paired", "pairingFailed", "bondLost", "securityRequested",
    ]

    /// `reconnected by 10s`, `willReconnect count=3`.
    public var description: String {
        var text: String
        switch kind {
        case .event(let name): text = name
        case .gaveUpAfter(let attempts): text = "gaveUp after \(attempts) attempts"
        case .value(let reference, let value): text = "value \(reference.characteristic) = \(value)"
        case .noNotificationLost(let reference):
            text = "no notification of \(reference.characteristic) lost outside outages"
        case .notifications(let reference): text = "notifications of \(reference.characteristic)"
        case .observed(let identifier, let equals): text = "observed \(identifier) = \(equals)"
        case .written(let identifier, let equals): text = "written \(identifier) = \(equals)"
        case .oracle(let name): text = "the \(name) oracle holds"
        }
        if let device { text += " on \(device)" }
        if let count { text += " count=\(count)" }
        if let atLeast { text += " atLeast=\(atLeast)" }
        if let atMost { text += " atMost=\(atMost)" }
        if let after { text += " after \(after)" }
        if let by { text += " by \(by)" }
        return text
    }
}
