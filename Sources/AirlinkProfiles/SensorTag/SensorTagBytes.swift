import AirlinkCore

/// Little-endian field access and the standard length error for SensorTag payloads.
enum SensorTagBytes {
    /// Throws ``/AirlinkCore/AirlinkError/Code/malformedData`` unless `bytes` has exactly `length` bytes.
    ///
    /// The message names the sensor, the characteristic, the expected length and the offset of the fault:
    /// `"humidity (SHT21) data (F000AA21) takes 4 bytes, not 3 (the fault is at offset 3)"`.
    static func requireLength(
        _ bytes: [UInt8], _ length: Int, sensor: String, characteristic: BluetoothUUID
    ) throws(AirlinkError) {
        guard bytes.count != length else { return }
        throw AirlinkError(
            .malformedData,
            "\(sensor) (\(characteristic)) takes \(length) bytes, not \(bytes.count) (the fault is at offset "
                + "\(min(bytes.count, length)))")
    }

    /// The unsigned 16-bit little-endian value at `offset`.
    static func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    /// The signed 16-bit little-endian value at `offset`.
    static func int16(_ bytes: [UInt8], at offset: Int) -> Int16 {
        Int16(bitPattern: uint16(bytes, at: offset))
    }

    /// The two little-endian bytes of `value`.
    static func bytes(_ value: UInt16) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }

    /// The two little-endian bytes of `value`.
    static func bytes(_ value: Int16) -> [UInt8] { bytes(UInt16(bitPattern: value)) }

    /// `value` rounded to the nearest integer (ties away from zero) and clamped to `Int16`'s range.
    static func clampedInt16(_ value: Double) -> Int16 {
        guard value.isFinite else { return value > 0 ? .max : value < 0 ? .min : 0 }
        return Int16(max(Double(Int16.min), min(Double(Int16.max), value.rounded())))
    }

    /// `value` rounded to the nearest integer (ties away from zero) and clamped to `UInt16`'s range.
    static func clampedUInt16(_ value: Double) -> UInt16 {
        guard value.isFinite else { return value > 0 ? .max : 0 }
        return UInt16(max(0, min(Double(UInt16.max), value.rounded())))
    }

    /// `value` rounded to the nearest integer (ties away from zero) and clamped to `Int8`'s range.
    static func clampedInt8(_ value: Double) -> Int8 {
        guard value.isFinite else { return value > 0 ? .max : value < 0 ? .min : 0 }
        return Int8(max(Double(Int8.min), min(Double(Int8.max), value.rounded())))
    }
}
