import AirlinkCore

/// Reads the fields of one ATT PDU in order, and names the PDU, the field and the offset when
/// the bytes run short or run on.
struct ATTByteReader {
    let bytes: [UInt8]
    let opcode: ATTOpcode
    private(set) var offset: Int

    init(_ bytes: [UInt8], opcode: ATTOpcode, offset: Int = 1) {
        self.bytes = bytes
        self.opcode = opcode
        self.offset = offset
    }

    /// The PDU's name for messages, built only when one is needed (decoding is on every hot path).
    var pduName: String { opcode.description }

    var remaining: Int { bytes.count - offset }

    func failure(_ problem: String, at offset: Int) -> AirlinkError {
        AirlinkError(.malformedData, "\(pduName) is malformed at offset \(offset): \(problem)")
    }

    mutating func uint8(_ field: String) throws(AirlinkError) -> UInt8 {
        guard remaining >= 1 else {
            throw failure("\(field) needs 1 byte but the PDU ends after \(bytes.count) bytes", at: offset)
        }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16(_ field: String) throws(AirlinkError) -> UInt16 {
        guard remaining >= 2 else {
            throw failure("\(field) needs 2 bytes but the PDU ends after \(bytes.count) bytes", at: offset)
        }
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func handle(_ field: String) throws(AirlinkError) -> ATTHandle {
        ATTHandle(try uint16(field))
    }

    mutating func bytes(_ count: Int, _ field: String) throws(AirlinkError) -> [UInt8] {
        guard remaining >= count else {
            throw failure(
                "\(field) needs \(count) bytes but the PDU ends after \(bytes.count) bytes", at: offset)
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    /// A 2- or 16-byte UUID running to the end of the PDU.
    mutating func uuidToEnd(_ field: String) throws(AirlinkError) -> BluetoothUUID {
        guard remaining == 2 || remaining == 16 else {
            throw failure("\(field) must be 2 or 16 bytes, not \(remaining)", at: offset)
        }
        let raw = rest()
        do { return try BluetoothUUID(littleEndian: raw) } catch { throw failure(error.message, at: offset) }
    }

    func expectEnd() throws(AirlinkError) {
        guard remaining == 0 else {
            throw failure("\(remaining) unexpected trailing byte\(remaining == 1 ? "" : "s")", at: offset)
        }
    }
}
