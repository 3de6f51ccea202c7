import AirlinkCore

/// A descriptor of a custom peripheral's characteristic, with a typed value and permissions.
public struct ScenarioDescriptor: Sendable, Decodable {
    /// The descriptor's type (`"2901"`); not the CCCD, which the database adds itself.
    public var uuid: ScenarioUUID
    /// Its value.
    public var value: ScenarioValue
    /// What a client may do with it: readable, plus what `permissions:` and `minimumKeySize:` add.
    public var permissions: AttributePermissions

    private enum CodingKeys: String, CodingKey { case uuid, type, value, permissions, minimumKeySize }

    /// Decodes `uuid`, `type`, `value`, `permissions` and `minimumKeySize`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uuid = try container.decode(ScenarioUUID.self, forKey: .uuid)
        let type = try container.decode(ScenarioValueType.self, forKey: .type)
        value = try ScenarioValue.decode(type, forKey: .value, in: container)
        permissions = try container.decodePermissions(.permissions, keySize: .minimumKeySize).union(.readable)
    }
}

extension KeyedDecodingContainer {
    /// Decodes a list of permission names (`readEncryptionRequired` or `read-encryption-required`) and a minimum
    /// key size of 7 to 16 bytes; an unknown name or a size that is not a whole number in 7–16 is an error
    /// naming its line, never ignored.
    func decodePermissions(_ namesKey: Key, keySize sizeKey: Key) throws -> AttributePermissions {
        var permissions: AttributePermissions = []
        if contains(namesKey) {
            var names = try nestedUnkeyedContainer(forKey: namesKey)
            while !names.isAtEnd {
                let index = names.currentIndex
                let name = try names.decode(String.self).trimmingWhitespace
                guard let match = AttributePermissions.names.first(where: { $0.1.kebabCased == name.kebabCased })
                else {
                    throw DecodingError.corruptedEntry(
                        index, of: names,
                        "expected a permission ("
                            + AttributePermissions.names.map(\.1).joined(separator: ", ") + "), found '\(name)'")
                }
                permissions.insert(match.0)
            }
        }
        guard contains(sizeKey) else { return permissions }
        // try?: a size that is no string is reported below as "no number", with the forms accepted
        let text = (try? decode(String.self, forKey: sizeKey))?.trimmingWhitespace
        guard let text, let bytes = Int(text), AttributePermissions.keySizes.contains(bytes) else {
            throw DecodingError.dataCorruptedError(
                forKey: sizeKey, in: self,
                debugDescription: "expected a minimum key size in bytes, a whole number from 7 to 16, found "
                    + (text.map { "'\($0)'" } ?? "no number"))
        }
        do {
            return permissions.union(try AttributePermissions.minimumKeySize(bytes))
        } catch {
            throw DecodingError.dataCorruptedError(forKey: sizeKey, in: self, debugDescription: error.message)
        }
    }
}
