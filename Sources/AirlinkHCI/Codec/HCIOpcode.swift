/// An HCI command opcode: the Opcode Group Field (6 bits) and Opcode Command Field (10 bits)
/// (Core Spec Vol 4, Part E, 5.4.1).
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 16-bit opcode, OGF in the top 6 bits.
    public var rawValue: UInt16

    /// Creates an opcode from its 16-bit value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Creates an opcode from its group and command fields.
    public init(ogf: UInt16, ocf: UInt16) { rawValue = ogf << 10 | (ocf & 0x3FF) }

    /// The Opcode Group Field.
    public var ogf: UInt16 { rawValue >> 10 }
    /// The Opcode Command Field.
    public var ocf: UInt16 { rawValue & 0x3FF }

    /// Disconnect (Vol 4, Part E, 7.1.6).
    public static let disconnect = HCIOpcode(ogf: 0x01, ocf: 0x0006)
    /// Set Event Mask (7.3.1).
    public static let setEventMask = HCIOpcode(ogf: 0x03, ocf: 0x0001)
    /// Reset (7.3.2).
    public static let reset = HCIOpcode(ogf: 0x03, ocf: 0x0003)
    /// Write LE Host Support (7.3.79).
    public static let writeLEHostSupport = HCIOpcode(ogf: 0x03, ocf: 0x006D)
    /// Read Local Version Information (7.4.1).
    public static let readLocalVersion = HCIOpcode(ogf: 0x04, ocf: 0x0001)
    /// Read Local Supported Commands (7.4.2).
    public static let readLocalSupportedCommands = HCIOpcode(ogf: 0x04, ocf: 0x0002)
    /// Read Local Supported Features (7.4.3).
    public static let readLocalSupportedFeatures = HCIOpcode(ogf: 0x04, ocf: 0x0003)
    /// Read Buffer Size (7.4.5).
    public static let readBufferSize = HCIOpcode(ogf: 0x04, ocf: 0x0005)
    /// Read BD_ADDR (7.4.6).
    public static let readBDAddress = HCIOpcode(ogf: 0x04, ocf: 0x0009)
    /// Read RSSI (7.5.4).
    public static let readRSSI = HCIOpcode(ogf: 0x05, ocf: 0x0005)
    /// LE Set Event Mask (7.8.1).
    public static let leSetEventMask = HCIOpcode(ogf: 0x08, ocf: 0x0001)
    /// LE Read Buffer Size [v1] (7.8.2).
    public static let leReadBufferSize = HCIOpcode(ogf: 0x08, ocf: 0x0002)
    /// LE Read Local Supported Features (7.8.3).
    public static let leReadLocalSupportedFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0003)
    /// LE Set Random Address (7.8.4).
    public static let leSetRandomAddress = HCIOpcode(ogf: 0x08, ocf: 0x0005)
    /// LE Set Advertising Parameters (7.8.5).
    public static let leSetAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0006)
    /// LE Read Advertising Physical Channel Tx Power (7.8.6).
    public static let leReadAdvertisingChannelTxPower = HCIOpcode(ogf: 0x08, ocf: 0x0007)
    /// LE Set Advertising Data (7.8.7).
    public static let leSetAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x0008)
    /// LE Set Scan Response Data (7.8.8).
    public static let leSetScanResponseData = HCIOpcode(ogf: 0x08, ocf: 0x0009)
    /// LE Set Advertising Enable (7.8.9).
    public static let leSetAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x000A)
    /// LE Set Scan Parameters (7.8.10).
    public static let leSetScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x000B)
    /// LE Set Scan Enable (7.8.11).
    public static let leSetScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x000C)
    /// LE Create Connection (7.8.12).
    public static let leCreateConnection = HCIOpcode(ogf: 0x08, ocf: 0x000D)
    /// LE Create Connection Cancel (7.8.13).
    public static let leCreateConnectionCancel = HCIOpcode(ogf: 0x08, ocf: 0x000E)
    /// LE Read Filter Accept List Size (7.8.14).
    public static let leReadFilterAcceptListSize = HCIOpcode(ogf: 0x08, ocf: 0x000F)
    /// LE Clear Filter Accept List (7.8.15).
    public static let leClearFilterAcceptList = HCIOpcode(ogf: 0x08, ocf: 0x0010)
    /// LE Add Device To Filter Accept List (7.8.16).
    public static let leAddDeviceToFilterAcceptList = HCIOpcode(ogf: 0x08, ocf: 0x0011)
    /// LE Remove Device From Filter Accept List (7.8.17).
    public static let leRemoveDeviceFromFilterAcceptList = HCIOpcode(ogf: 0x08, ocf: 0x0012)
    /// LE Connection Update (7.8.18).
    public static let leConnectionUpdate = HCIOpcode(ogf: 0x08, ocf: 0x0013)
    /// LE Read Remote Features (7.8.21).
    public static let leReadRemoteFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0016)
    /// LE Enable Encryption (7.8.24).
    public static let leEnableEncryption = HCIOpcode(ogf: 0x08, ocf: 0x0019)
    /// LE Read Supported States (7.8.27).
    public static let leReadSupportedStates = HCIOpcode(ogf: 0x08, ocf: 0x001C)
    /// LE Set Data Length (7.8.33).
    public static let leSetDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0022)
    /// LE Read Suggested Default Data Length (7.8.34).
    public static let leReadSuggestedDefaultDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0023)
    /// LE Write Suggested Default Data Length (7.8.35).
    public static let leWriteSuggestedDefaultDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0024)
    /// LE Read Maximum Data Length (7.8.46).
    public static let leReadMaximumDataLength = HCIOpcode(ogf: 0x08, ocf: 0x002F)
    /// LE Read PHY (7.8.47).
    public static let leReadPHY = HCIOpcode(ogf: 0x08, ocf: 0x0030)
    /// LE Set Default PHY (7.8.48).
    public static let leSetDefaultPHY = HCIOpcode(ogf: 0x08, ocf: 0x0031)
    /// LE Set PHY (7.8.49).
    public static let leSetPHY = HCIOpcode(ogf: 0x08, ocf: 0x0032)

    /// `0x200D` style: the opcode in hex.
    public var description: String {
        let digits = String(rawValue, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
