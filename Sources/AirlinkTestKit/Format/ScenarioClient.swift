import Airlink
import AirlinkCore

/// What the app does with one device, through the `Airlink` layers: connect with a reconnection
/// strategy, subscribe, read and write.
///
/// ```yaml
/// client:
///   - device: Thermostat
///     connectTimeout: 5s
///     reconnection: {linear: {wait: 2s, attempts: 3, timeout: 3s}}
///     subscribe: [{service: thermostat-temperature-service, characteristic: thermostat-temperature}]
///     read: [{service: battery, characteristic: battery-level, every: 10s, type: uint8}]
///     write: [{service: ..., characteristic: ..., at: 5s, type: temperature, value: 23}]
/// ```
///
/// Several apps may share the scenario's adapter (as processes share a BlueZ adapter): `app: 2` puts the
/// entry in the second app, which has its own device manager and registry over the same links. Entries of
/// one app for one device are two parts of that app using the same connection.
public struct ScenarioClient: Sendable, Decodable {
    /// The peripheral (its name or id).
    public var device: String
    /// The app the entry belongs to, from 1 (the first, by default) to ``ScenarioLimits/maximumApps``.
    public var app: Int?
    /// When to connect (0 s by default).
    public var connectAt: ScenarioDuration?
    /// The first connection's timeout (5 s by default).
    public var connectTimeout: ScenarioDuration?
    /// The reconnection strategy after a loss (none by default).
    public var reconnection: ScenarioReconnection?
    /// Characteristics to enable notifications of, and observe, once connected.
    public var subscribe: [ScenarioCharacteristicRef]?
    /// Periodic or one-off reads.
    public var read: [ScenarioOperation]?
    /// Periodic or one-off writes.
    public var write: [ScenarioOperation]?
    /// When to disconnect, if ever.
    public var disconnectAt: ScenarioDuration?
    /// When to disable the notifications of every `subscribe` entry, if ever (Airlink then no longer
    /// restores them after a loss).
    public var unsubscribeAt: ScenarioDuration?
    /// When to forget the device in the registry, if ever: its record goes, and the next connection
    /// starts a new one.
    public var forgetAt: ScenarioDuration?
    /// When and how to pair with the device (`pair: {at: 2s, io: keyboard-only, mitm: true, passkey: 123456}`),
    /// on the virtual radio (Docs/Security.md).
    public var pair: ScenarioSecurity?
    /// The pairing policy (`pairWhenRefused: {io: keyboard-only, mitm: true, passkey: 123456}`): a read or write
    /// refused with Insufficient Authentication or Encryption pairs with these features (or encrypts with the
    /// bond) and runs once more (``/Airlink/PairingPolicy``).
    public var pairWhenRefused: ScenarioSecurity?
    /// For an inspector: what to read, write and follow by identifier, through an `InspectorClient`.
    public var observe: ScenarioObserve?
}

/// A characteristic in a service.
public struct ScenarioCharacteristicRef: Sendable, Decodable {
    /// The characteristic's service, by UUID or by a name the scenario's world defines.
    public var service: ScenarioUUID
    /// The characteristic, by UUID or by a name the scenario's world defines.
    public var characteristic: ScenarioUUID
    /// How to show its values in the trace (bytes by default).
    public var type: ScenarioValueType?
    /// For `noNotificationLost`: the step between consecutive values of a counter (with `type`).
    public var step: Int?
}

/// A read or write of the client: once `at` a time, or `every` period (from `at`, or from the connection).
public struct ScenarioOperation: Sendable, Decodable {
    /// The characteristic's service, by UUID or by a name the scenario's world defines.
    public var service: ScenarioUUID
    /// The characteristic read or written, by UUID or by a name the scenario's world defines.
    public var characteristic: ScenarioUUID
    /// When (the first time).
    public var at: ScenarioDuration?
    /// How often; once when absent.
    public var every: ScenarioDuration?
    /// How many times at most, with `every`.
    public var count: Int?
    /// The value's type.
    public var type: ScenarioValueType
    /// The value to write.
    public var value: ScenarioValue?
    /// Write without response.
    public var withoutResponse: Bool

    private enum CodingKeys: String, CodingKey {
        case service, characteristic, at, every, count, type, value, withoutResponse
    }

    /// Decodes an operation.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        service = try container.decode(ScenarioUUID.self, forKey: .service)
        characteristic = try container.decode(ScenarioUUID.self, forKey: .characteristic)
        at = try container.decodeIfPresent(ScenarioDuration.self, forKey: .at)
        every = try container.decodePeriod(forKey: .every)
        count = try container.decodeCount(.count, in: 1...ScenarioLimits.maximumCount, "a count")
        type = try container.decodeIfPresent(ScenarioValueType.self, forKey: .type) ?? .bytes
        value = try ScenarioValue.decodeIfPresent(type, forKey: .value, in: container)
        withoutResponse = try container.decodeIfPresent(Bool.self, forKey: .withoutResponse) ?? false
    }
}

/// A reconnection strategy as a scenario writes it: one key naming it.
///
/// `none`, `{linear: {wait, attempts, timeout}}`, `{exponential: {initialDelay, multiplier, maximumDelay,
/// attempts, timeout, jitter: none|full|decorrelated}}`, `{whenAdvertising: {attempts, timeout, window}}`.
public struct ScenarioReconnection: Sendable, Decodable, CustomStringConvertible {
    /// The strategy the key names, with its parameters (``/Airlink/NoReconnectionStrategy`` for `none`).
    public var strategy: any ReconnectionStrategy
    /// `linear wait=2s attempts=3 timeout=3s`.
    public var description: String

    private enum CodingKeys: String, CodingKey { case none, linear, exponential, whenAdvertising }
    private enum ParameterKeys: String, CodingKey {
        case wait, attempts, timeout, initialDelay, multiplier, maximumDelay, jitter, window
    }

    /// Decodes a strategy and validates it.
    public init(from decoder: any Decoder) throws {
        // try?: a value that is no string is decoded as a strategy's mapping below, which says what is wrong
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            guard text == "none" else {
                throw DecodingError.dataCorruptedError(
                    in: single,
                    debugDescription:
                        "expected none, {linear: ...}, {exponential: ...} or {whenAdvertising: ...}, found '\(text)'")
            }
            strategy = NoReconnectionStrategy()
            description = "none"
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let key = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath,
                    debugDescription: "expected exactly one of none, linear, exponential, whenAdvertising"))
        }
        let parameters = key == .none ? nil : try container.nestedContainer(keyedBy: ParameterKeys.self, forKey: key)
        func duration(_ key: ParameterKeys) throws -> Duration {
            try parameters!.decode(ScenarioDuration.self, forKey: key).duration
        }
        func optionalDuration(_ key: ParameterKeys) throws -> Duration? {
            try parameters!.decodeIfPresent(ScenarioDuration.self, forKey: key)?.duration
        }
        let attemptRange = 0...ScenarioLimits.maximumAttempts
        switch key {
        case .none:
            strategy = NoReconnectionStrategy()
            description = "none"
        case .linear:
            let wait = try duration(.wait)
            guard let attempts = try parameters!.decodeCount(.attempts, in: attemptRange, "a number of attempts") else {
                throw DecodingError.keyNotFound(
                    ParameterKeys.attempts,
                    .init(codingPath: parameters!.codingPath, debugDescription: "`linear` needs `attempts:`"))
            }
            let timeout = try duration(.timeout)
            strategy = LinearReconnectionStrategy(wait: wait, attempts: attempts, timeout: timeout)
            description = "linear wait=\(wait.scenarioText) attempts=\(attempts) timeout=\(timeout.scenarioText)"
        case .exponential:
            let initial = try duration(.initialDelay)
            let multiplier = try parameters!.decodeIfPresent(Double.self, forKey: .multiplier) ?? 2
            guard (1...100).contains(multiplier) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .multiplier, in: parameters!,
                    debugDescription: "expected a multiplier from 1 to 100, found \(multiplier)")
            }
            let maximum = try duration(.maximumDelay)
            let attempts = try parameters!.decodeCount(.attempts, in: attemptRange, "a number of attempts")
            let timeout = try duration(.timeout)
            let jitterText = try parameters!.decodeIfPresent(String.self, forKey: .jitter) ?? "full"
            let jitter: ExponentialBackoffReconnectionStrategy.Jitter
            switch jitterText {
            case "none": jitter = .none
            case "full": jitter = .full
            case "decorrelated": jitter = .decorrelated
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .jitter, in: parameters!,
                    debugDescription: "expected none, full or decorrelated, found '\(jitterText)'")
            }
            strategy = ExponentialBackoffReconnectionStrategy(
                initialDelay: initial, multiplier: multiplier, maximumDelay: maximum, attempts: attempts,
                timeout: timeout, jitter: jitter)
            description =
                "exponential initialDelay=\(initial.scenarioText) multiplier=\(multiplier) "
                + "maximumDelay=\(maximum.scenarioText) attempts=\(attempts.map(String.init) ?? "unlimited") "
                + "timeout=\(timeout.scenarioText) jitter=\(jitterText)"
        case .whenAdvertising:
            let attempts = try parameters!.decodeCount(.attempts, in: attemptRange, "a number of attempts")
            let timeout = try duration(.timeout)
            let window = try optionalDuration(.window)
            strategy = AdvertisementReconnectionStrategy(attempts: attempts, timeout: timeout, window: window)
            description =
                "whenAdvertising attempts=\(attempts.map(String.init) ?? "unlimited") timeout=\(timeout.scenarioText)"
        }
        do {
            try strategy.validate()
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: container.codingPath + [key], debugDescription: error.message))
        }
    }
}
