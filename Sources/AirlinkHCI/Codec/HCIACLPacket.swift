import AirlinkCore

/// An HCI ACL data packet: a connection handle, its flags and a fragment of an L2CAP frame
/// (Core Spec Vol 4, Part E, 5.4.2).
public struct HCIACLPacket: Hashable, Sendable {
    /// The connection handle, 0x0000–0x0EFF.
    public var handle: UInt16
    /// Whether this is the first fragment of an L2CAP frame (Packet_Boundary_Flag 0b00 or 0b10) rather than a
    /// continuation (0b01).
    public var isFirstFragment: Bool
    /// The packet's data.
    public var data: [UInt8]

    /// The largest valid connection handle.
    public static let maximumHandle: UInt16 = 0x0EFF

    /// Creates a packet; a first fragment from the controller uses Packet_Boundary_Flag 0b10.
    public init(handle: UInt16, isFirstFragment: Bool = true, data: [UInt8]) {
        self.handle = handle
        self.isFirstFragment = isFirstFragment
        self.data = data
    }

    /// The packet's bytes: handle and flags, data length, data.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLittle16(handle & 0x0FFF | (isFirstFragment ? 0x2000 : 0x1000))
        bytes.appendLittle16(UInt16(truncatingIfNeeded: data.count))
        return bytes + data
    }

    /// Decodes an ACL data packet (without its H4 indicator).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData``: a short header, a length that disagrees, a
    ///   handle above 0x0EFF, the reserved boundary flag 0b11 or a broadcast flag (LE has no broadcast ACL).
    public init(decoding bytes: [UInt8]) throws(AirlinkError) {
        var reader = HCIByteReader(bytes, "ACL data packet")
        let header = try reader.uint16("handle and flags")
        let length = Int(try reader.uint16("data total length"))
        handle = header & 0x0FFF
        guard handle <= Self.maximumHandle else {
            throw reader.failure("connection handle 0x\(String(handle, radix: 16)) is above 0x0EFF", at: 0)
        }
        let boundary = (header >> 12) & 0x3
        guard boundary != 0x3 else { throw reader.failure("packet boundary flag 0b11 is reserved", at: 1) }
        guard header >> 14 == 0 else { throw reader.failure("broadcast flag is set; LE has no broadcast ACL", at: 1) }
        isFirstFragment = boundary != 0x1
        data = try reader.bytes(length, "data")
        try reader.expectEnd()
    }

    /// The ACL packets that carry `frame` to the host on `handle`, each with at most `maximumLength` bytes.
    public static func fragments(of frame: [UInt8], handle: UInt16, maximumLength: Int) -> [HCIACLPacket] {
        var packets: [HCIACLPacket] = []
        var start = 0
        repeat {
            let end = min(frame.count, start + max(1, maximumLength))
            packets.append(HCIACLPacket(handle: handle, isFirstFragment: start == 0, data: Array(frame[start..<end])))
            start = end
        } while start < frame.count
        return packets
    }
}
