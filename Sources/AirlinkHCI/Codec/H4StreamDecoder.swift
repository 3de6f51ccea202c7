import AirlinkCore

/// Cuts a byte stream from a host (a socket) into H4 packets, however the bytes arrive.
///
/// A stream has no resynchronisation point: after a bad indicator or a malformed packet the decoder stays
/// failed, and the connection should be closed.
public struct H4StreamDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var failure: AirlinkError?

    /// A decoder at the start of a stream.
    public init() {}

    /// Adds bytes received from the stream.
    public mutating func append(_ bytes: some Sequence<UInt8>) { buffer.append(contentsOf: bytes) }

    /// The next whole packet, or `nil` when more bytes are needed.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for an unknown indicator or a malformed
    ///   packet; again on every later call.
    public mutating func next() throws(AirlinkError) -> HCIPacket? {
        if let failure { throw failure }
        guard let first = buffer.first else { return nil }
        let header: (size: Int, lengthAt: Int, wide: Bool)
        switch HCIPacket.Indicator(rawValue: first) {
        case .command: header = (3, 3, false)
        case .acl: header = (4, 3, true)
        case .event: header = (2, 2, false)
        case .sco, .iso, nil:
            let error = AirlinkError(
                .malformedData,
                "H4 stream: indicator 0x\(String(first, radix: 16)) is not one this controller takes "
                    + "(0x01 command, 0x02 ACL data, 0x04 event); the stream cannot be resynchronised")
            failure = error
            throw error
        }
        guard buffer.count >= 1 + header.size else { return nil }
        let length =
            header.wide
            ? Int(buffer[header.lengthAt]) | Int(buffer[header.lengthAt + 1]) << 8 : Int(buffer[header.lengthAt])
        let total = 1 + header.size + length
        guard buffer.count >= total else { return nil }
        let bytes = Array(buffer[0..<total])
        buffer.removeFirst(total)
        do {
            return try HCIPacket(h4: bytes)
        } catch {
            failure = error
            throw error
        }
    }
}
