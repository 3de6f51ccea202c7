import AirlinkCore

/// The one byte of a single-byte SensorTag characteristic (configuration, period).
enum SensorTagByte {
    /// The only byte of `bytes`.
    ///
    /// - Parameter what: how the value is named in the error (`a SensorTag period (units of 10 ms)`).
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` if there is not exactly one byte, with the offset
    ///   of the fault.
    static func only(_ bytes: [UInt8], _ what: String) throws(AirlinkError) -> UInt8 {
        guard bytes.count == 1 else {
            throw AirlinkError(
                .malformedData,
                "\(what) takes 1 byte, not \(bytes.count) (the fault is at offset \(min(bytes.count, 1)))")
        }
        return bytes[0]
    }
}
