import Airlink
import AirlinkCore

/// An app in the world that publishes values with an `Inspector`, on its own adapter of the
/// simulation: centrals (the scenario's client among them) discover it by name and use its values.
///
/// ```yaml
/// world:
///   - inspector: Test Server
///     values:
///       - {identifier: temperature, type: double, value: 21.5, options: [read, notify]}
///       - {identifier: enabled, type: bool, value: true, options: [read, write, notify]}
/// ```
public struct ScenarioInspector: Sendable {
    /// The advertised name (1 to 19 UTF-8 bytes).
    public var name: String
    /// The values, in order.
    public var values: [ScenarioInspectedValue]

    /// The declared value with an identifier.
    public func value(_ identifier: String) -> ScenarioInspectedValue? {
        values.first { $0.identifier == identifier }
    }
}

/// A value an inspector of the world publishes: an identifier, a type, an initial value and options.
public struct ScenarioInspectedValue: Sendable, Decodable {
    /// The name centrals use.
    public var identifier: String
    /// The initial value, with its type (`bool`, `uint8`...`uint64`, `int8`...`int64`, `double`,
    /// `string`, `bytes`, `json`).
    public var value: InspectedValue
    /// `read`, `write`, `notify` (`[read, notify]` by default).
    public var options: InspectionOptions

    private enum CodingKeys: String, CodingKey { case identifier, type, value, options }

    /// The option names a scenario uses.
    static let optionNames: [(String, InspectionOptions)] = [("read", .read), ("write", .write), ("notify", .notify)]

    /// Decodes a value; its text must be a value of its type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        let typeName = try container.decode(String.self, forKey: .type)
        let type: InspectedType
        do {
            type = try InspectedType(named: typeName)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: error.message)
        }
        value = try Self.decodeValue(type, forKey: .value, in: container)
        if container.contains(.options) {
            var names = try container.nestedUnkeyedContainer(forKey: .options)
            var options: InspectionOptions = []
            while !names.isAtEnd {
                let index = names.currentIndex
                let name = try names.decode(String.self)
                guard let option = Self.optionNames.first(where: { $0.0 == name }) else {
                    throw DecodingError.corruptedEntry(
                        index, of: names, "expected read, write or notify, found '\(name)'")
                }
                options.insert(option.1)
            }
            self.options = options
        } else {
            options = [.read, .notify]
        }
    }

    /// Decodes the text at `key` as a value of `type`.
    static func decodeValue<Key: CodingKey>(
        _ type: InspectedType, forKey key: Key, in container: KeyedDecodingContainer<Key>
    ) throws -> InspectedValue {
        let text = try container.decode(String.self, forKey: key)
        do {
            return try InspectedValue(parsing: text, as: type)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.message)
        }
    }
}

/// What the client does with an inspector, by identifier, through an `InspectorClient` (its `observe:`).
///
/// ```yaml
/// client:
///   - device: Test Server
///     observe:
///       follow: true                                  # trace every notified change (default)
///       read: [{identifier: temperature, at: 1s}]     # or every: 5s, count: 3
///       write: [{identifier: enabled, at: 4s, value: false}]
/// ```
public struct ScenarioObserve: Sendable, Decodable {
    /// Whether the client subscribes to every value inspected with `notify` and traces its changes.
    public var follow: Bool
    /// Reads by identifier.
    public var read: [ScenarioObservedOperation]
    /// Writes by identifier, with values written in the value's type.
    public var write: [ScenarioObservedOperation]

    private enum CodingKeys: String, CodingKey { case follow, read, write }

    /// Decodes the block; every part is optional.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        follow = try container.decodeIfPresent(Bool.self, forKey: .follow) ?? true
        read = try container.decodeIfPresent([ScenarioObservedOperation].self, forKey: .read) ?? []
        write = try container.decodeIfPresent([ScenarioObservedOperation].self, forKey: .write) ?? []
        for (index, operation) in write.enumerated() where operation.value == nil {
            throw DecodingError.keyNotFound(
                ScenarioObservedOperation.CodingKeys.value,
                .init(
                    codingPath: container.codingPath + [CodingKeys.write],
                    debugDescription: "write[\(index)] of \(operation.identifier) needs `value:`"))
        }
    }
}

/// A read or write of an inspected value: once `at` a time, or `every` period, `count` times at most.
public struct ScenarioObservedOperation: Sendable, Decodable {
    /// The value's identifier.
    public var identifier: String
    /// When (the first time).
    public var at: ScenarioDuration?
    /// How often; once when absent.
    public var every: ScenarioDuration?
    /// How many times at most, with `every`.
    public var count: Int?
    /// The value to write, as text of the value's type (checked against the world's inspector).
    public var value: String?

    enum CodingKeys: String, CodingKey { case identifier, at, every, count, value }

    /// Decodes an operation.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        at = try container.decodeIfPresent(ScenarioDuration.self, forKey: .at)
        every = try container.decodePeriod(forKey: .every)
        count = try container.decodeCount(.count, in: 1...ScenarioLimits.maximumCount, "a count")
        value = try container.decodeIfPresent(String.self, forKey: .value)
    }
}
