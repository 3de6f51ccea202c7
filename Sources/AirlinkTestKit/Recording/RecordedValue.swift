import AirlinkCore

/// What one read of a characteristic or descriptor gave while recording: its bytes, or the ATT error the
/// device answered with (a read refused with Insufficient Authentication is recorded as such).
public enum RecordedValue: Sendable, Hashable {
    /// The value read, at most 512 bytes (Core Spec Vol 3, Part F, 3.2.9).
    case bytes([UInt8])
    /// The ATT Error Response the read got (Vol 3, Part F, 3.4.1.1).
    case error(ATTError)

    /// The bytes, or `nil` for an error.
    public var bytes: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The ATT error, or `nil` for bytes.
    public var error: ATTError? {
        if case .error(let error) = self { return error }
        return nil
    }
}
