import AirlinkCore

/// The Simple Keys state (FFE1): which of the tag's keys are down.
///
/// One byte: bit 0 the right key, bit 1 the left key, bit 2 the side key, as the CC2541 SensorTag User
/// Guide documents the characteristic. The firmware notifies on every change; it reports the side key only
/// in test mode (otherwise the side key toggles advertising). TI's `simplekeys.h` names bit 0
/// `SK_KEY_LEFT` and bit 1 `SK_KEY_RIGHT` (the board's S2 and S3): the user guide's names, used here, are
/// those of the tag as held, and Deanna names the bits only 1 and 2.
public struct SensorTagKeys: OptionSet, GATTValue, Hashable, CustomStringConvertible {
    /// Bit 0 right key, bit 1 left key, bit 2 side key; other bits are 0.
    public var rawValue: UInt8

    /// Creates a state from its byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The right key, bit 0.
    public static let right = SensorTagKeys(rawValue: 0x01)
    /// The left key, bit 1.
    public static let left = SensorTagKeys(rawValue: 0x02)
    /// The side key, bit 2 (reported in test mode only).
    public static let side = SensorTagKeys(rawValue: 0x04)

    /// Decodes the byte.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for any length but 1, or for bits 3 ... 7, which the
    ///   tag never sets (offset 0).
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try SensorTagBytes.requireLength(
            gattBytes, 1, sensor: "simple keys data", characteristic: .sensorTagSimpleKeysData)
        guard gattBytes[0] & 0xF8 == 0 else {
            throw AirlinkError(
                .malformedData,
                "simple keys data (FFE1) uses bits 0 ... 2 (right, left, side), not 0x"
                    + String(gattBytes[0], radix: 16, uppercase: true) + " (the fault is at offset 0)")
        }
        self.rawValue = gattBytes[0]
    }

    /// `[rawValue]`, as FFE1 notifies it.
    public var gattBytes: [UInt8] { [rawValue] }

    /// `"left+right"`, or `"none"`.
    public var description: String {
        let names = [(SensorTagKeys.left, "left"), (.right, "right"), (.side, "side")]
            .filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: "+")
    }
}
