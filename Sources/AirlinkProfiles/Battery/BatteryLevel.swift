import AirlinkCore

/// A battery's charge in percent, 0–100: the Battery Level characteristic (0x2A19, GSS `uint8`,
/// Battery Service 1.0, 3.1).
///
/// One byte: the percentage. Values over 100 are refused when decoding and when creating.
public struct BatteryLevel: GATTValue, Hashable, Comparable, CustomStringConvertible {
    /// The charge, 0–100 %.
    public let percent: UInt8

    /// A level, clamped to 0–100 %.
    public init(_ percent: UInt8) { self.percent = min(percent, 100) }

    /// A level in 0–100 %.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` past 100.
    public init(checking percent: Int) throws(AirlinkError) {
        guard (0...100).contains(percent) else {
            throw AirlinkError(.invalidArgument, "a battery level is 0–100 %, not \(percent)")
        }
        self.percent = UInt8(percent)
    }

    /// Decodes one byte, 0–100.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for another length or a value over 100.
    public init(gattBytes: [UInt8]) throws(AirlinkError) {
        try Self.requireLength(gattBytes, 1...1)
        guard gattBytes[0] <= 100 else {
            throw AirlinkError(.malformedData, "BatteryLevel is 0–100 %, not \(gattBytes[0]) (offset 0)")
        }
        percent = gattBytes[0]
    }

    /// `[percent]`, 0–100 (Battery Level, 0x2A19).
    public var gattBytes: [UInt8] { [percent] }

    /// The level after draining `points` percent, never below 0.
    public func drained(by points: UInt8) -> BatteryLevel { BatteryLevel(percent > points ? percent - points : 0) }

    /// Orders levels by charge.
    public static func < (lhs: BatteryLevel, rhs: BatteryLevel) -> Bool { lhs.percent < rhs.percent }

    /// `87 %`.
    public var description: String { "\(percent) %" }
}
