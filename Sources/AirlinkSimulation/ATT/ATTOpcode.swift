import AirlinkCore

/// The first byte of every ATT PDU (Core Spec Vol 3, Part F, 3.3 and 3.4.8).
///
/// Bit 6 is the Command Flag: a server ignores unknown commands but answers unknown requests with
/// Request Not Supported (Vol 3, Part F, 3.4.1.1).
public struct ATTOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The PDU's first byte (Core Spec Vol 3, Part F, 3.3).
    public var rawValue: UInt8

    /// Creates an opcode from its byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01 ATT_ERROR_RSP (Vol 3, Part F, 3.4.1.1).
    public static let errorResponse = ATTOpcode(rawValue: 0x01)
    /// 0x02 ATT_EXCHANGE_MTU_REQ (Vol 3, Part F, 3.4.2.1).
    public static let exchangeMTURequest = ATTOpcode(rawValue: 0x02)
    /// 0x03 ATT_EXCHANGE_MTU_RSP (Vol 3, Part F, 3.4.2.2).
    public static let exchangeMTUResponse = ATTOpcode(rawValue: 0x03)
    /// 0x04 ATT_FIND_INFORMATION_REQ (Vol 3, Part F, 3.4.3.1).
    public static let findInformationRequest = ATTOpcode(rawValue: 0x04)
    /// 0x05 ATT_FIND_INFORMATION_RSP (Vol 3, Part F, 3.4.3.2).
    public static let findInformationResponse = ATTOpcode(rawValue: 0x05)
    /// 0x06 ATT_FIND_BY_TYPE_VALUE_REQ (Vol 3, Part F, 3.4.3.3).
    public static let findByTypeValueRequest = ATTOpcode(rawValue: 0x06)
    /// 0x07 ATT_FIND_BY_TYPE_VALUE_RSP (Vol 3, Part F, 3.4.3.4).
    public static let findByTypeValueResponse = ATTOpcode(rawValue: 0x07)
    /// 0x08 ATT_READ_BY_TYPE_REQ (Vol 3, Part F, 3.4.4.1).
    public static let readByTypeRequest = ATTOpcode(rawValue: 0x08)
    /// 0x09 ATT_READ_BY_TYPE_RSP (Vol 3, Part F, 3.4.4.2).
    public static let readByTypeResponse = ATTOpcode(rawValue: 0x09)
    /// 0x0A ATT_READ_REQ (Vol 3, Part F, 3.4.4.3).
    public static let readRequest = ATTOpcode(rawValue: 0x0A)
    /// 0x0B ATT_READ_RSP (Vol 3, Part F, 3.4.4.4).
    public static let readResponse = ATTOpcode(rawValue: 0x0B)
    /// 0x0C ATT_READ_BLOB_REQ (Vol 3, Part F, 3.4.4.5).
    public static let readBlobRequest = ATTOpcode(rawValue: 0x0C)
    /// 0x0D ATT_READ_BLOB_RSP (Vol 3, Part F, 3.4.4.6).
    public static let readBlobResponse = ATTOpcode(rawValue: 0x0D)
    /// 0x0E ATT_READ_MULTIPLE_REQ (Vol 3, Part F, 3.4.4.7); Airlink does not implement it.
    public static let readMultipleRequest = ATTOpcode(rawValue: 0x0E)
    /// 0x10 ATT_READ_BY_GROUP_TYPE_REQ (Vol 3, Part F, 3.4.4.9).
    public static let readByGroupTypeRequest = ATTOpcode(rawValue: 0x10)
    /// 0x11 ATT_READ_BY_GROUP_TYPE_RSP (Vol 3, Part F, 3.4.4.10).
    public static let readByGroupTypeResponse = ATTOpcode(rawValue: 0x11)
    /// 0x12 ATT_WRITE_REQ (Vol 3, Part F, 3.4.5.1).
    public static let writeRequest = ATTOpcode(rawValue: 0x12)
    /// 0x13 ATT_WRITE_RSP (Vol 3, Part F, 3.4.5.2).
    public static let writeResponse = ATTOpcode(rawValue: 0x13)
    /// 0x52 ATT_WRITE_CMD (Vol 3, Part F, 3.4.5.3).
    public static let writeCommand = ATTOpcode(rawValue: 0x52)
    /// 0xD2 ATT_SIGNED_WRITE_CMD (Vol 3, Part F, 3.4.5.4); Airlink does not implement it.
    public static let signedWriteCommand = ATTOpcode(rawValue: 0xD2)
    /// 0x16 ATT_PREPARE_WRITE_REQ (Vol 3, Part F, 3.4.6.1).
    public static let prepareWriteRequest = ATTOpcode(rawValue: 0x16)
    /// 0x17 ATT_PREPARE_WRITE_RSP (Vol 3, Part F, 3.4.6.2).
    public static let prepareWriteResponse = ATTOpcode(rawValue: 0x17)
    /// 0x18 ATT_EXECUTE_WRITE_REQ (Vol 3, Part F, 3.4.6.3).
    public static let executeWriteRequest = ATTOpcode(rawValue: 0x18)
    /// 0x19 ATT_EXECUTE_WRITE_RSP (Vol 3, Part F, 3.4.6.4).
    public static let executeWriteResponse = ATTOpcode(rawValue: 0x19)
    /// 0x1B ATT_HANDLE_VALUE_NTF (Vol 3, Part F, 3.4.7.1).
    public static let handleValueNotification = ATTOpcode(rawValue: 0x1B)
    /// 0x1D ATT_HANDLE_VALUE_IND (Vol 3, Part F, 3.4.7.2).
    public static let handleValueIndication = ATTOpcode(rawValue: 0x1D)
    /// 0x1E ATT_HANDLE_VALUE_CFM (Vol 3, Part F, 3.4.7.3).
    public static let handleValueConfirmation = ATTOpcode(rawValue: 0x1E)

    /// Whether the Command Flag (bit 6) is set: the PDU expects no response (Vol 3, Part F, 3.3.1).
    public var isCommand: Bool { rawValue & 0x40 != 0 }

    /// Whether Airlink's ``ATTPDU`` can decode this opcode.
    public var isSupported: Bool {
        Self.names[rawValue] != nil && self != .readMultipleRequest && self != .signedWriteCommand
    }

    /// The name without its `ATT_` prefix, `READ_REQ`, as error responses print it; `0x0E` if unnamed.
    public var shortName: String {
        if let name = Self.names[rawValue] { return name }
        let digits = String(rawValue, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }

    /// `ATT_READ_REQ`, or `ATT 0x3F` for an unnamed opcode.
    public var description: String {
        Self.names[rawValue] != nil ? "ATT_" + shortName : "ATT " + shortName
    }

    static let names: [UInt8: String] = [
        0x01: "ERROR_RSP", 0x02: "EXCHANGE_MTU_REQ", 0x03: "EXCHANGE_MTU_RSP", 0x04: "FIND_INFORMATION_REQ",
        0x05: "FIND_INFORMATION_RSP", 0x06: "FIND_BY_TYPE_VALUE_REQ", 0x07: "FIND_BY_TYPE_VALUE_RSP",
        0x08: "READ_BY_TYPE_REQ", 0x09: "READ_BY_TYPE_RSP", 0x0A: "READ_REQ", 0x0B: "READ_RSP",
        0x0C: "READ_BLOB_REQ", 0x0D: "READ_BLOB_RSP", 0x0E: "READ_MULTIPLE_REQ", 0x10: "READ_BY_GROUP_TYPE_REQ",
        0x11: "READ_BY_GROUP_TYPE_RSP", 0x12: "WRITE_REQ", 0x13: "WRITE_RSP", 0x52: "WRITE_CMD",
        0xD2: "SIGNED_WRITE_CMD", 0x16: "PREPARE_WRITE_REQ", 0x17: "PREPARE_WRITE_RSP", 0x18: "EXECUTE_WRITE_REQ",
        0x19: "EXECUTE_WRITE_RSP", 0x1B: "HANDLE_VALUE_NTF", 0x1D: "HANDLE_VALUE_IND", 0x1E: "HANDLE_VALUE_CFM",
    ]
}
