import AirlinkCore

/// Reads little-endian fields from an untrusted HCI or L2CAP packet; a short packet is a typed
/// ``/AirlinkCore/AirlinkError/Code/malformedData`` naming the field and its offset, never a trap.
struct HCIByteReader {
    private let bytes: [UInt8]
    private let what: String
    /// The offset of the next byte to read.
    private(set) var offset = 0

    /// A reader of `bytes`, which are `what` ("HCI command", "ACL packet") for the messages.
    init(_ bytes: [UInt8], _ what: String) {
        self.bytes = bytes
        self.what = what
    }

    /// How many bytes are left.
    var remaining: Int { bytes.count - offset }

    /// The error for a fault at `offset`.
    func failure(_ message: String, at offset: Int? = nil) -> AirlinkError {
        AirlinkError(.malformedData, "\(what) is malformed at offset \(offset ?? self.offset): \(message)")
    }

    mutating func uint8(_ field: String) throws(AirlinkError) -> UInt8 {
        guard remaining >= 1 else { throw failure("\(field) is missing") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16(_ field: String) throws(AirlinkError) -> UInt16 {
        guard remaining >= 2 else { throw failure("\(field) needs 2 bytes, \(remaining) left") }
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func bytes(_ count: Int, _ field: String) throws(AirlinkError) -> [UInt8] {
        guard remaining >= count else { throw failure("\(field) needs \(count) bytes, \(remaining) left") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// The rest of the packet.
    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    /// Throws unless every byte was read (a length field that disagrees with the packet).
    func expectEnd() throws(AirlinkError) {
        guard remaining == 0 else { throw failure("\(remaining) trailing byte(s) past the declared length") }
    }
}

/// Appends little-endian fields, as HCI carries them.
extension Array where Element == UInt8 {
    mutating func appendLittle16(_ value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }
}
