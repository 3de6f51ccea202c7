/// The limits a scenario is checked against when it is read (Docs/Scenarios.md lists them).
///
/// Virtual time passes at once, but every virtual event costs real work: a run of a year, a read every
/// microsecond, a burst of a billion notifications or a world of a million devices would run for hours
/// with nothing printed. Each limit keeps a run within seconds and is named in the error that refuses it.
public enum ScenarioLimits {
    /// The longest run: one day of virtual time.
    public static let maximumDuration = Duration.seconds(86_400)
    /// The shortest period of a periodic read, write or value update (`every:`).
    public static let minimumPeriod = Duration.milliseconds(1)
    /// The most times the periodic reads, writes and value updates of a run may happen together
    /// (for each, the run's duration divided by its period, or its `count`).
    public static let maximumOccurrences = 100_000
    /// The largest `count` or `times` of an action, and of a read or write.
    public static let maximumCount = 10_000
    /// The most attempts of a reconnection strategy.
    public static let maximumAttempts = 1_000
    /// The most peripherals in a world.
    public static let maximumPeripherals = 64
    /// The most clients, and the most actions in a timeline.
    public static let maximumEntries = 1_000
    /// The most apps a scenario runs on its adapter (a client's `app:`, from 1).
    public static let maximumApps = 8
    /// The farthest a peripheral may stand, in metres, along each axis.
    public static let maximumDistance = 100_000.0
    /// The advertising interval's range (Core Specification Vol 6, Part B, 4.4.2.2: 20 ms to 10.24 s).
    public static let advertisingIntervals = Duration.milliseconds(20)...Duration.milliseconds(10_240)
}

extension KeyedDecodingContainer {
    /// Decodes an optional whole number that must lie in `range`, saying so with `what` it counts.
    func decodeCount(_ key: Key, in range: ClosedRange<Int>, _ what: String) throws -> Int? {
        guard let value = try decodeIfPresent(Int.self, forKey: key) else { return nil }
        guard range.contains(value) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "expected \(what) from \(range.lowerBound) to \(range.upperBound), found \(value)")
        }
        return value
    }
}

/// A step of a coding path built by hand (a key or an index), to locate an error found after decoding.
struct ScenarioPathKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) { self.stringValue = stringValue }

    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

extension Scenario {
    /// Checks what no single key shows: that the periodic reads, writes and value updates together
    /// happen at most ``ScenarioLimits/maximumOccurrences`` times in the run.
    func checkOccurrences(_ codingPath: [any CodingKey]) throws {
        var total = 0.0
        func add(_ every: Duration?, count: Int? = nil, from start: Duration = .zero, _ path: [ScenarioPathKey])
            throws
        {
            guard let every, every > .zero else { return }
            let occurrences = count.map(Double.init) ?? max(0, (duration.duration - start) / every)
            total += occurrences
            guard total > Double(ScenarioLimits.maximumOccurrences) else { return }
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + path,
                    debugDescription:
                        "with every \(every.scenarioText) for \(duration), the periodic reads, writes and updates "
                        + "happen \(Int(total)) times or more, beyond the \(ScenarioLimits.maximumOccurrences) a run "
                        + "allows; write longer periods, a `count:`, or a shorter `duration:`"))
        }
        func key(_ name: String) -> ScenarioPathKey { ScenarioPathKey(stringValue: name) }
        func index(_ value: Int) -> ScenarioPathKey { ScenarioPathKey(intValue: value) }
        for (position, peripheral) in world.enumerated() {
            if let text = peripheral.parameters?["drainEvery"] {
                try add(ScenarioDuration.parse(text), [key("world"), index(position), key("parameters")])
            }
            for (serviceIndex, service) in (peripheral.services ?? []).enumerated() {
                for (characteristicIndex, characteristic) in service.characteristics.enumerated() {
                    try add(
                        characteristic.updates?.every.duration,
                        [
                            key("world"), index(position), key("services"), index(serviceIndex),
                            key("characteristics"), index(characteristicIndex), key("updates"), key("every"),
                        ])
                }
            }
        }
        for (position, client) in self.client.enumerated() {
            for (name, operations) in [("read", client.read), ("write", client.write)] {
                for (operationIndex, operation) in (operations ?? []).enumerated() {
                    try add(
                        operation.every?.duration, count: operation.count, from: operation.at?.duration ?? .zero,
                        [key("client"), index(position), key(name), index(operationIndex), key("every")])
                }
            }
            let observed = [("read", client.observe?.read ?? []), ("write", client.observe?.write ?? [])]
            for (name, operations) in observed {
                for (operationIndex, operation) in operations.enumerated() {
                    try add(
                        operation.every?.duration, count: operation.count, from: operation.at?.duration ?? .zero,
                        [
                            key("client"), index(position), key("observe"), key(name), index(operationIndex),
                            key("every"),
                        ])
                }
            }
        }
    }
}
