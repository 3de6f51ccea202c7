/// A typed value that travels as the bytes of a characteristic or descriptor.
///
/// Simulated peripherals declare their values with these types and typed client services read them
/// back the same way, so neither side handles raw bytes. Decoding throws with the offset and the
/// limit that was broken, never returns `nil` without saying why.
///
/// ```swift
/// struct Percent: GATTValue {
///     var value: UInt8
///     init(gattBytes: [UInt8]) throws(AirlinkError) { value = try UInt8(gattBytes: gattBytes) }
///     var gattBytes: [UInt8] { [value] }
/// }
/// let level = try Percent(gattBytes: [0x57])   // 87 %
/// ```
public protocol GATTValue: Sendable {
    /// Decodes the value from its bytes.
    ///
    /// - Throws: ``AirlinkError/Code/malformedData`` naming the type, the expected length or range,
    ///   and the offset of the fault.
    init(gattBytes: [UInt8]) throws(AirlinkError)

    /// The value's bytes, as a characteristic carries them.
    var gattBytes: [UInt8] { get }
}

extension GATTValue {
    /// Throws the standard error for a payload of the wrong length.
    ///
    /// - Parameters:
    ///   - bytes: the payload.
    ///   - expected: the lengths the type accepts.
    public static func requireLength(_ bytes: [UInt8], _ expected: ClosedRange<Int>) throws(AirlinkError) {
        guard expected.contains(bytes.count) else {
            let wanted =
                expected.lowerBound == expected.upperBound
                ? "\(expected.lowerBound)" : "\(expected.lowerBound) to \(expected.upperBound)"
            throw AirlinkError(
                .malformedData,
                "\(Self.self) takes \(wanted) byte(s), not \(bytes.count) (the fault is at offset "
                    + "\(min(bytes.count, expected.upperBound)))")
        }
    }
}
