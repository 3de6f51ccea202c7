/// A value that JSON and YAML carry as its written form: decoded with `init(parsing:)`, encoded as
/// its `description` (`"180F"`, `"C0:FF:EE:00:00:01/random"`).
///
/// A string that does not parse is a `DecodingError.dataCorrupted` whose text is the parser's message,
/// so a bad file says which value was wrong and why.
public protocol StringCodable: Codable, CustomStringConvertible {
    /// Parses the written form.
    ///
    /// - Throws: an ``AirlinkError`` naming the string and what is wrong with it.
    init(parsing text: String) throws(AirlinkError)
}

extension StringCodable {
    /// Decodes the value from its written form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Encodes the value as its written form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
