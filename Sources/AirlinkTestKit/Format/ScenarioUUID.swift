import AirlinkCore
import AirlinkProfiles

/// A service or characteristic UUID as a scenario writes it: `180F`, a 128-bit UUID, a slug of an
/// assigned number (`battery-level`), or the name of a built-in profile's UUID (`thermostat-temperature`).
public struct ScenarioUUID: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// The UUID the text resolved to.
    public var uuid: BluetoothUUID

    /// Wraps a UUID.
    public init(_ uuid: BluetoothUUID) { self.uuid = uuid }

    /// The built-in profiles' UUIDs by name.
    public static let profileNames: [(String, BluetoothUUID)] = [
        ("thermostat-temperature-service", .thermostatTemperatureService),
        ("thermostat-temperature", .thermostatTemperature),
        ("thermostat-unit", .thermostatUnit),
        ("thermostat-battery-service", .thermostatBatteryService),
        ("thermostat-battery-level", .thermostatBatteryLevel),
    ]

    /// Decodes a UUID in any of its written forms.
    ///
    /// - Throws: `DecodingError.dataCorrupted` saying which forms are accepted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let uuid = Self.resolve(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a UUID (180F, a 128-bit UUID), an assigned number's slug (battery-level) "
                    + "or a built-in name (\(Self.profileNames.map(\.0).joined(separator: ", "))), found '\(text)'")
        }
        self.uuid = uuid
    }

    /// Resolves the written forms; `nil` if the text is none of them.
    public static func resolve(_ text: String) -> BluetoothUUID? {
        let text = text.trimmingWhitespace
        if let match = profileNames.first(where: { $0.0 == text.lowercased() }) { return match.1 }
        // try?: `nil` is this function's answer for text of none of the forms; the caller says which it accepts
        if let uuid = try? BluetoothUUID(parsing: text) { return uuid }
        return try? BluetoothUUID(named: text)  // try?: as above
    }

    /// The UUID's description.
    public var description: String { uuid.description }
}

/// A position as a scenario writes it: a distance in metres (`2`, `2m`) or `{x, y, z}`.
public struct ScenarioPosition: Sendable, Hashable, Decodable {
    /// The position the text gives, in metres: a distance, or x, y and z.
    public var position: Position

    private enum CodingKeys: String, CodingKey { case x, y, z }

    /// Decodes a distance or coordinates.
    ///
    /// - Throws: `DecodingError` saying which forms are accepted.
    public init(from decoder: any Decoder) throws {
        let limit = ScenarioLimits.maximumDistance
        // try?: a value that is no mapping is tried as the other form below, which says what is accepted
        if let container = try? decoder.container(keyedBy: CodingKeys.self) {
            func coordinate(_ key: CodingKeys) throws -> Double? {
                guard let value = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
                guard value.magnitude <= limit else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container,
                        debugDescription: "expected metres from -\(Int(limit)) to \(Int(limit)), found \(value)")
                }
                return value
            }
            guard let x = try coordinate(.x) else {
                throw DecodingError.keyNotFound(
                    CodingKeys.x, .init(codingPath: container.codingPath, debugDescription: "a position needs `x:`"))
            }
            position = Position(x: x, y: try coordinate(.y) ?? 0, z: try coordinate(.z) ?? 0)
            return
        }
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self).trimmingWhitespace
        let number = text.hasSuffix("m") ? String(text.dropLast()) : text
        guard let metres = Double(number), metres >= 0, metres <= limit else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a distance in metres from 0 to \(Int(limit)) (2, 2.5m) or {x: 1, y: 2}, "
                    + "found '\(text)'")
        }
        position = .metres(metres)
    }
}
