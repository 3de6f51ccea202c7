import AirlinkCore

/// An L2CAP basic-mode frame (B-frame): a channel ID and its payload (Core Spec Vol 3, Part A, 3.1).
public struct L2CAPFrame: Hashable, Sendable {
    /// The channel the payload belongs to.
    public var channel: UInt16
    /// The payload: an ATT PDU on ``attChannel``, a signalling command on ``leSignallingChannel``.
    public var payload: [UInt8]

    /// The Attribute Protocol's fixed channel.
    public static let attChannel: UInt16 = 0x0004
    /// The LE signalling channel.
    public static let leSignallingChannel: UInt16 = 0x0005
    /// The Security Manager's fixed channel.
    public static let smpChannel: UInt16 = 0x0006

    /// Creates a frame.
    public init(channel: UInt16, payload: [UInt8]) {
        self.channel = channel
        self.payload = payload
    }

    /// The frame's bytes: payload length, channel ID, payload.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLittle16(UInt16(truncatingIfNeeded: payload.count))
        bytes.appendLittle16(channel)
        return bytes + payload
    }

    /// Decodes a whole frame.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` when the header is short or its length
    ///   disagrees with the bytes.
    public init(decoding bytes: [UInt8]) throws(AirlinkError) {
        var reader = HCIByteReader(bytes, "L2CAP frame")
        let length = Int(try reader.uint16("length"))
        channel = try reader.uint16("channel ID")
        payload = try reader.bytes(length, "payload")
        try reader.expectEnd()
    }
}

/// Joins the ACL fragments of one connection into L2CAP frames (Core Spec Vol 3, Part A, 7.2).
public struct L2CAPReassembler: Sendable {
    private var pending: [UInt8] = []

    /// The largest frame it assembles: a 517-byte ATT PDU and its header, with room to spare.
    public static let maximumFrameLength = 1_024

    /// A reassembler with nothing pending.
    public init() {}

    /// Adds one ACL packet; returns a frame when the packet completes one.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData``: a continuation with no frame begun, a first
    ///   fragment while one is unfinished, a fragment past the declared length, a frame over
    ///   ``maximumFrameLength``. The pending frame is dropped.
    public mutating func append(_ packet: HCIACLPacket) throws(AirlinkError) -> L2CAPFrame? {
        if packet.isFirstFragment {
            guard pending.isEmpty else {
                pending = []
                throw AirlinkError(
                    .malformedData,
                    "L2CAP: a first fragment arrived on handle \(packet.handle) before the last frame "
                        + "was complete; the unfinished frame is dropped")
            }
            pending = packet.data
        } else {
            guard !pending.isEmpty else {
                throw AirlinkError(
                    .malformedData,
                    "L2CAP: a continuation fragment arrived on handle \(packet.handle) with no frame begun")
            }
            pending += packet.data
        }
        guard pending.count >= 2 else { return nil }
        let total = 4 + (Int(pending[0]) | Int(pending[1]) << 8)
        guard total <= Self.maximumFrameLength else {
            pending = []
            throw AirlinkError(
                .malformedData,
                "L2CAP: a frame of \(total) bytes is over the \(Self.maximumFrameLength) this controller takes")
        }
        guard pending.count >= total else { return nil }
        guard pending.count == total else {
            let extra = pending.count - total
            pending = []
            throw AirlinkError(.malformedData, "L2CAP: \(extra) byte(s) past the frame's declared length")
        }
        defer { pending = [] }
        return try L2CAPFrame(decoding: pending)
    }
}
