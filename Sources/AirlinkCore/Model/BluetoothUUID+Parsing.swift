extension BluetoothUUID: CustomStringConvertible, LosslessStringConvertible, StringCodable {
    /// Parses `"180F"`, `"0x180F"`, `"F000AA00"` (eight hex digits) or the 36-character form.
    ///
    /// - Throws: ``AirlinkError/Code/invalidUUID``, naming the string and what is wrong with it.
    public init(parsing text: String) throws(AirlinkError) {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        func fail(_ why: String) -> AirlinkError {
            AirlinkError(
                .invalidUUID,
                "\"\(text)\" is not a Bluetooth UUID: \(why); write 4 or 8 hex digits (180F, 0x180F) or "
                    + "the 36-character form (0000180F-0000-1000-8000-00805F9B34FB)")
        }
        switch digits.count {
        case 4, 8:
            guard let number = UInt32(digits, radix: 16), digits.allSatisfy(\.isHexDigit) else {
                throw fail("it has a character that is not a hex digit")
            }
            self.init(uint32: number)
        case 36:
            let groups = digits.split(separator: "-", omittingEmptySubsequences: false)
            guard groups.map(\.count) == [8, 4, 4, 4, 12] else {
                throw fail("its groups must have 8-4-4-4-12 hex digits")
            }
            var raw: UInt128 = 0
            for character in groups.joined() {
                guard let nibble = character.hexDigitValue else {
                    throw fail("'\(character)' is not a hex digit")
                }
                raw = raw << 4 | UInt128(nibble)
            }
            self.init(value: raw)
        case 0:
            throw fail("it is empty")
        default:
            throw fail("it has \(digits.count) characters")
        }
    }

    /// Parses a UUID as ``init(parsing:)`` does, returning `nil` on failure (for `LosslessStringConvertible`).
    public init?(_ description: String) {
        // try?: LosslessStringConvertible's init? has no error to give; init(parsing:) is the one that says why
        guard let uuid = try? BluetoothUUID(parsing: description) else { return nil }
        self = uuid
    }

    /// The shortest form: `180F`, `F000AA00` or `68753A44-4D6F-1226-9C60-0050E4C00066`, uppercase.
    public var description: String {
        if let short = uint16 { return hex4(short) }
        if let short = uint32 { return hex4(UInt16(short >> 16)) + hex4(UInt16(truncatingIfNeeded: short)) }
        return uuidString
    }

    /// The 36-character form, uppercase.
    public var uuidString: String {
        var hex = ""
        for shift in stride(from: 112, through: 0, by: -16) {
            hex += hex4(UInt16(truncatingIfNeeded: value >> shift))
        }
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

}
