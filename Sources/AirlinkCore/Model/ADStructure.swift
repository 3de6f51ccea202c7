/// One AD structure: a type and its data, as laid out in advertising and scan response data
/// (Core Spec Vol 3, Part C, 11).
///
/// On air a structure is a length byte (counting the type byte and the data), the type byte, then the data.
public struct ADStructure: Hashable, Sendable, Codable, CustomStringConvertible {
    /// What the structure carries (name, UUIDs, manufacturer data…): its first byte after the length.
    public var type: ADType
    /// The bytes after the type byte, at most 29 in a legacy advertisement.
    public var data: [UInt8]

    /// The most data one structure can hold: its length byte counts the type byte too.
    public static let maximumDataCount = 254

    /// Creates a structure.
    ///
    /// - Parameters:
    ///   - type: the AD type.
    ///   - data: the data after the type byte; at most ``maximumDataCount`` bytes to be encodable.
    public init(type: ADType, data: [UInt8]) {
        self.type = type
        self.data = data
    }

    /// The number of bytes the structure takes on air: length byte, type byte and data.
    public var encodedByteCount: Int { 2 + data.count }

    /// Appends the structure's bytes (length, type, data) to `bytes`.
    ///
    /// - Parameter bytes: the buffer to append to.
    /// - Throws: ``AirlinkError/Code/invalidArgument`` if the data is longer than ``maximumDataCount``.
    public func encode(into bytes: inout [UInt8]) throws(AirlinkError) {
        guard data.count <= Self.maximumDataCount else {
            throw AirlinkError(
                .invalidArgument,
                "the \(type) structure has \(data.count) bytes of data; an AD structure holds at most "
                    + "\(Self.maximumDataCount), so shorten it")
        }
        bytes.append(UInt8(data.count + 1))
        bytes.append(type.rawValue)
        bytes.append(contentsOf: data)
    }

    /// Splits advertising or scan response data into its structures, in order, with the offset of each
    /// structure's length byte.
    ///
    /// A zero length byte ends the data early (Core Spec Vol 3, Part C, 11): it and any bytes after it
    /// are padding and are not read.
    ///
    /// - Parameter bytes: the advertising or scan response data.
    /// - Throws: ``AirlinkError/Code/malformedData`` if a structure's length runs past the end of the
    ///   data, naming the offset of its length byte.
    public static func split(_ bytes: [UInt8]) throws(AirlinkError) -> [(offset: Int, structure: ADStructure)] {
        var structures: [(offset: Int, structure: ADStructure)] = []
        var offset = 0
        while offset < bytes.count {
            let length = Int(bytes[offset])
            if length == 0 { break }
            let end = offset + 1 + length
            guard end <= bytes.count else {
                let available = bytes.count - offset - 1
                throw malformed(
                    at: offset,
                    "an AD structure of length \(length) runs past the end: "
                        + (available == 1 ? "1 byte follows" : "\(available) bytes follow") + " its length byte")
            }
            let structure = ADStructure(type: ADType(bytes[offset + 1]), data: Array(bytes[(offset + 2)..<end]))
            structures.append((offset, structure))
            offset = end
        }
        return structures
    }

    /// `Complete Local Name (0x09): 41 69 72`.
    public var description: String {
        let hex = data.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        return hex.isEmpty ? "\(type)" : "\(type): " + hex.joined(separator: " ")
    }

    /// A `.malformedData` error for the byte at `offset` of advertising data.
    static func malformed(at offset: Int, _ why: String) -> AirlinkError {
        AirlinkError(.malformedData, "malformed advertising data at offset \(offset): \(why)")
    }
}
