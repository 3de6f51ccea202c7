extension BluetoothUUID {
    /// One row of the assigned-numbers table: a SIG UUID with the name the specification gives it and
    /// the slug a command-line user types for it.
    public struct AssignedNumber: Hashable, Sendable {
        /// What the UUID identifies in a GATT database.
        public enum Kind: String, Hashable, Sendable, Codable {
            /// A service, such as the Battery Service.
            case service
            /// A characteristic, such as Battery Level.
            case characteristic
            /// A characteristic descriptor, such as the Client Characteristic Configuration.
            case descriptor
            /// An attribute type that declares GATT structure (Core Spec Vol 3, Part G, 3).
            case declaration
        }

        /// The assigned UUID the name belongs to.
        public let uuid: BluetoothUUID
        /// The name from Bluetooth Assigned Numbers: `"Battery Service"`, `"Battery Level"`.
        public let name: String
        /// Lowercase words joined by hyphens, without the word "service": `"battery"`, `"battery-level"`.
        public let slug: String
        /// What the UUID identifies.
        public let kind: Kind

        init(_ number: UInt16, _ name: String, _ slug: String, _ kind: Kind) {
            self.uuid = BluetoothUUID(number)
            self.name = name
            self.slug = slug
            self.kind = kind
        }
    }

    /// The specification's name for this UUID, such as `"Battery Level"`, or `nil` if the SIG did not assign it.
    public var name: String? { Self.assignedNumbersByUUID[self]?.name }

    /// The slug for this UUID, such as `"battery-level"`, or `nil` if Airlink does not know it.
    public var slug: String? { Self.assignedNumbersByUUID[self]?.slug }

    /// Creates a UUID from what a person types: a slug (`battery-level`), a name in any case
    /// (`Battery Level`, `battery service`), a constant's name (`batteryLevel`), or any string that
    /// ``init(parsing:)`` accepts (`2A19`, `0x2A19`, the 36-character form).
    ///
    /// Names compare without regard to case, spaces, hyphens and underscores.
    ///
    /// - Parameter text: the name or UUID to look up.
    /// - Throws: ``AirlinkError/Code/invalidUUID``, naming the string; a string that looks like hex digits
    ///   gets ``init(parsing:)``'s explanation, any other string a list of similar slugs if there are some.
    public init(named text: String) throws(AirlinkError) {
        if let entry = Self.assignedNumbersByKey[Self.lookupKey(text)] {
            self = entry.uuid
            return
        }
        let looksLikeUUID = !text.isEmpty && text.allSatisfy { $0.isHexDigit || $0 == "-" || $0 == "x" || $0 == "X" }
        if looksLikeUUID {
            try self.init(parsing: text)
            return
        }
        var message = "\"\(text)\" is neither a known Bluetooth name nor a UUID: write a slug such as battery-level, "
        message += "a name such as \"Battery Level\", or a UUID such as 2A19"
        let key = Self.lookupKey(text)
        let similar = key.isEmpty ? [] : Self.assignedNumbers.filter { Self.lookupKey($0.slug).contains(key) }
        if !similar.isEmpty {
            message += "; did you mean " + similar.prefix(3).map(\.slug).joined(separator: ", ") + "?"
        }
        throw AirlinkError(.invalidUUID, message)
    }

    private static let assignedNumbersByUUID: [BluetoothUUID: AssignedNumber] = {
        var table: [BluetoothUUID: AssignedNumber] = [:]
        for entry in assignedNumbers {
            precondition(table[entry.uuid] == nil, "\(entry.uuid) appears twice in BluetoothUUID.assignedNumbers")
            table[entry.uuid] = entry
        }
        return table
    }()

    private static let assignedNumbersByKey: [String: AssignedNumber] = {
        var table: [String: AssignedNumber] = [:]
        for entry in assignedNumbers {
            for key in Set([lookupKey(entry.name), lookupKey(entry.slug)]) {
                precondition(table[key] == nil, "\"\(key)\" names two entries of BluetoothUUID.assignedNumbers")
                table[key] = entry
            }
        }
        return table
    }()

    /// Lowercased, without spaces, hyphens and underscores: `Battery Level`, `battery-level` and
    /// `batteryLevel` all become `batterylevel`.
    static func lookupKey(_ text: String) -> String {
        String(text.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" })
    }
}
