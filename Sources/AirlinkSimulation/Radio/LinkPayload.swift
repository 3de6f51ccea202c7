import AirlinkCore

/// An ATT PDU crossing a link.
///
/// A PDU whose bytes decode back to it (``ATTPDU/exactEncodedCount``: reads, writes, notifications,
/// errors) travels as it is: neither end encodes or decodes it, which cost a read three of its seven
/// allocations (Docs/Performance.md), and the trace encodes it only when it keeps its bytes. Any
/// other PDU travels as its bytes and is decoded on arrival, as a receiver would.
enum LinkPayload {
    /// The PDU itself, with its length on air.
    case pdu(ATTPDU, count: Int)
    /// The PDU's bytes.
    case bytes([UInt8])

    init(_ pdu: ATTPDU) {
        if let count = pdu.exactEncodedCount {
            self = .pdu(pdu, count: count)
        } else {
            self = .bytes(pdu.encoded)
        }
    }

    /// The PDU's length on air (without L2CAP's header).
    var count: Int {
        switch self {
        case .pdu(_, let count): count
        case .bytes(let bytes): bytes.count
        }
    }

    /// The PDU's bytes on air (encoded now for a PDU that travels as it is).
    var bytes: [UInt8] {
        switch self {
        case .pdu(let pdu, _): pdu.encoded
        case .bytes(let bytes): bytes
        }
    }

    /// The PDU, decoded from its bytes if it travels as bytes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for bytes that are not a PDU.
    func decoded() throws(AirlinkError) -> ATTPDU {
        switch self {
        case .pdu(let pdu, _): pdu
        case .bytes(let bytes): try ATTPDU(decoding: bytes)
        }
    }
}
