/// Validation of the names libdbus would reject with a fatal check failure (D-Bus Specification,
/// "Valid Object Paths", "Valid Names"): Airlink checks them first and throws instead.
package enum DBusNames {
    /// Whether `path` is a valid object path: `/`, or `/`-separated non-empty elements of `[A-Za-z0-9_]`.
    package static func isValidObjectPath(_ path: String) -> Bool {
        var previous: UInt8 = 0
        var count = 0
        for byte in path.utf8 {
            if count == 0 {
                guard byte == UInt8(ascii: "/") else { return false }
            } else if byte == UInt8(ascii: "/") {
                guard previous != UInt8(ascii: "/") else { return false }
            } else {
                guard isNameCharacter(byte) else { return false }
            }
            previous = byte
            count += 1
        }
        return count == 1 || (count > 1 && previous != UInt8(ascii: "/"))
    }

    /// Whether `name` is a valid interface or error name: two or more `.`-separated elements, each
    /// starting with a letter or `_`, at most 255 bytes.
    package static func isValidInterfaceName(_ name: String) -> Bool {
        guard name.utf8.count <= 255 else { return false }
        let elements = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.first, !isDigit(first) else { return false }
            return element.allSatisfy(isNameCharacter)
        }
    }

    /// Whether `name` is a valid member (method or signal) name.
    package static func isValidMemberName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !isDigit(first), name.utf8.count <= 255 else { return false }
        return name.utf8.allSatisfy(isNameCharacter)
    }

    /// Whether `name` is a valid bus name: a unique name (`:1.42`) or a well-known one (`org.bluez`).
    package static func isValidBusName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255 else { return false }
        let isUnique = name.hasPrefix(":")
        let body = isUnique ? name.utf8.dropFirst() : Substring(name).utf8[...]
        let elements = body.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.first else { return false }
            if !isUnique && isDigit(first) { return false }
            return element.allSatisfy { isNameCharacter($0) || $0 == UInt8(ascii: "-") }
        }
    }

    /// Whether a string can travel as a D-Bus string (Swift strings are UTF-8; D-Bus forbids NUL).
    package static func isValidString(_ text: String) -> Bool { !text.utf8.contains(0) }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isNameCharacter(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == UInt8(ascii: "_")
    }
}
