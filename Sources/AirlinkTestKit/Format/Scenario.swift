import Airlink
import AirlinkCore

/// A scenario: a world, a timeline of faults, what the app does and what must hold, run in virtual time.
///
/// Loaded from YAML by ``Scenario/load(path:)`` or ``Scenario/parse(_:source:)``; the format is
/// documented in Docs/Scenarios.md.
public struct Scenario: Sendable, Decodable {
    /// A name for summaries (the file's name by default).
    public var name: String?
    /// What the scenario shows.
    public var description: String?
    /// The seed of the run (overridden by a sweep).
    public var seed: UInt64
    /// How much virtual time the run lasts.
    public var duration: ScenarioDuration
    /// The simulated peripherals and inspectors the run starts with.
    public var world: [ScenarioPeripheral]
    /// Faults and changes at virtual times.
    public var timeline: [ScenarioAction]
    /// What the apps do: each entry in its `app:` (the first by default).
    public var client: [ScenarioClient]
    /// What must hold.
    public var expect: [ScenarioExpectation]
    /// The link parameters the central asks for, if not the defaults.
    public var central: ScenarioCentral?
    /// Whether the apps cache discovered databases in their registries (`databaseCache:` `off`, the
    /// default, `verified` or `trustWithoutHash`; Docs/GATTCaching.md).
    public var databaseCaching: DatabaseCaching

    private enum CodingKeys: String, CodingKey {
        case name, description, seed, duration, world, timeline, client, expect, central
        case databaseCaching = "databaseCache"
    }

    /// Decodes a scenario; `world`, `client` and `expect` may be empty, `duration` is required.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        seed = try container.decodeIfPresent(UInt64.self, forKey: .seed) ?? 1
        duration = try container.decode(ScenarioDuration.self, forKey: .duration)
        guard duration.duration <= ScenarioLimits.maximumDuration else {
            throw DecodingError.dataCorruptedError(
                forKey: .duration, in: container,
                debugDescription: "a run lasts at most \(ScenarioLimits.maximumDuration.scenarioText) (24h) of "
                    + "virtual time, found \(duration); split a longer story into several scenarios")
        }
        world = try container.decodeIfPresent([ScenarioPeripheral].self, forKey: .world) ?? []
        for index in world.indices where world[index].loop == true {
            world[index].replay = .loop(until: duration.duration)
        }
        timeline = try container.decodeIfPresent([ScenarioAction].self, forKey: .timeline) ?? []
        client = try container.decodeIfPresent([ScenarioClient].self, forKey: .client) ?? []
        expect = try container.decodeIfPresent([ScenarioExpectation].self, forKey: .expect) ?? []
        central = try container.decodeIfPresent(ScenarioCentral.self, forKey: .central)
        let caching = try container.decodeIfPresent(String.self, forKey: .databaseCaching) ?? "off"
        guard let databaseCaching = DatabaseCaching(rawValue: caching) else {
            throw DecodingError.dataCorruptedError(
                forKey: .databaseCaching, in: container,
                debugDescription: "expected off, verified or trustWithoutHash, found \(caching.debugDescription)")
        }
        self.databaseCaching = databaseCaching
        let sizes: [(CodingKeys, Int, Int, String)] = [
            (.world, world.count, ScenarioLimits.maximumPeripherals, "peripherals"),
            (.timeline, timeline.count, ScenarioLimits.maximumEntries, "actions"),
            (.client, client.count, ScenarioLimits.maximumEntries, "clients"),
            (.expect, expect.count, ScenarioLimits.maximumEntries, "expectations"),
        ]
        for (key, count, maximum, what) in sizes where count > maximum {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "a scenario holds at most \(maximum) \(what), found \(count)")
        }
        for (index, entry) in client.enumerated() {
            guard let app = entry.app, !(1...ScenarioLimits.maximumApps).contains(app) else { continue }
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath + [
                        CodingKeys.client as any CodingKey, ScenarioPathKey(intValue: index),
                        ScenarioPathKey(stringValue: "app"),
                    ],
                    debugDescription:
                        "expected an app number from 1 to \(ScenarioLimits.maximumApps), found \(app); write `app: 2` "
                        + "for the second app on the adapter, or leave it out for the first"))
        }
        try checkOccurrences(container.codingPath)
    }
}

extension Scenario {
    /// How many apps the scenario runs: the highest `app:` of its clients (1 without any).
    public var appCount: Int { client.map { $0.app ?? 1 }.max() ?? 1 }
}
