import AirlinkCore

extension InspectedType {
    /// The types by the names people write: `bool`, `uint8`...`uint64`, `int8`...`int64`, `double`,
    /// `string`, `bytes`, `json`.
    public static let names: [(name: String, type: InspectedType)] = [
        ("bool", .bool), ("uint8", .unsigned(bits: 8)), ("uint16", .unsigned(bits: 16)),
        ("uint32", .unsigned(bits: 32)), ("uint64", .unsigned(bits: 64)), ("int8", .signed(bits: 8)),
        ("int16", .signed(bits: 16)), ("int32", .signed(bits: 32)), ("int64", .signed(bits: 64)), ("double", .double),
        ("string", .string), ("bytes", .bytes), ("json", .json),
    ]

    /// The type with a written name (case does not matter: `UInt16` and `uint16` are one type).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` listing the names there are.
    public init(named name: String) throws(AirlinkError) {
        let lowered = name.lowercased()
        guard let match = Self.names.first(where: { $0.name == lowered }) else {
            throw AirlinkError(
                .invalidArgument,
                "\"\(name)\" is not an inspected type; use one of \(Self.names.map(\.name).joined(separator: ", "))")
        }
        self = match.type
    }
}

extension InspectedValue {
    /// A value of `type` written as text: `true`/`false` for a Bool, a decimal integer within the
    /// type's range, a decimal number for a Double, any text for a String, hex (`0a0b` or `0x0a0b`,
    /// as ``/AirlinkCore/GATTValueFormat/hex`` reads it) for bytes, and JSON for JSON.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` saying what was expected and what was found.
    public init(parsing text: String, as type: InspectedType) throws(AirlinkError) {
        func invalid(_ expected: String) -> AirlinkError {
            AirlinkError(.invalidArgument, "expected \(expected) for a \(type) value, found \"\(text)\"")
        }
        switch type.code {
        case InspectedType.bool.code:
            guard text == "true" || text == "false" else { throw invalid("true or false") }
            self = .bool(text == "true")
        case 0x02...0x05:
            let bits = type.fixedSize! * 8
            let maximum: UInt64 = bits == 64 ? .max : (1 << UInt64(bits)) - 1
            guard let value = UInt64(text), value <= maximum else { throw invalid("an integer from 0 to \(maximum)") }
            self = .unsigned(value, bits: bits)
        case 0x06...0x09:
            let bits = type.fixedSize! * 8
            let maximum: Int64 = bits == 64 ? .max : (1 << Int64(bits - 1)) - 1
            let minimum = -maximum - 1
            guard let value = Int64(text), (minimum...maximum).contains(value) else {
                throw invalid("an integer from \(minimum) to \(maximum)")
            }
            self = .signed(value, bits: bits)
        case InspectedType.double.code:
            guard let value = Double(text), value.isFinite else { throw invalid("a finite decimal number") }
            self = .double(value)
        case InspectedType.string.code:
            self = .string(text)
        case InspectedType.json.code:
            do {
                self = try InspectedValue(decoding: Array(text.utf8), as: .json)
            } catch {
                throw invalid("JSON")
            }
        case InspectedType.bytes.code:
            do {
                self = .bytes(try GATTValueFormat.hex.bytes(of: text))
            } catch {
                throw invalid("hex digits in pairs, such as 0a0b")
            }
        default:
            throw AirlinkError(.invalidArgument, "cannot write a value of \(type): this version does not know it")
        }
    }
}
