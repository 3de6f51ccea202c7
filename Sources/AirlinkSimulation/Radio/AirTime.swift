import AirlinkCore

/// The air-time arithmetic of the timing model (Core Spec Vol 6, Part B, 2.1 and 4.5).
enum AirTime {
    /// The inter frame space between packets, 150 µs.
    static let interFrameSpace = VirtualDuration.microseconds(150)

    /// The air time of an LL data packet carrying `payload` bytes: preamble, access address (4),
    /// header (2), payload, CRC (3); no MIC (links are unencrypted).
    static func packet(payload: Int, phy: PHY) -> VirtualDuration {
        phy.byteTime * Int64(phy.preambleBytes + 4 + 2 + payload + 3)
    }

    /// How many LL packets carry an ATT PDU of `length` bytes with its 4-byte L2CAP header.
    static func fragments(length: Int, dataLength: Int) -> Int {
        max(1, (length + 4 + dataLength - 1) / dataLength)
    }
}
