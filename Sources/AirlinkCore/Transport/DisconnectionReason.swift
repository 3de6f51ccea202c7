/// Why a link went down: an HCI error code (Core Spec Vol 1, Part F, 1.3).
public struct DisconnectionReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The HCI error code the controller reported (Core Spec Vol 1, Part F), such as 0x08 for a supervision timeout.
    public var rawValue: UInt8

    /// Creates a reason from its HCI code.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x08 Connection Timeout: the supervision timeout expired (out of range, peripheral reset).
    public static let supervisionTimeout = DisconnectionReason(rawValue: 0x08)
    /// 0x13 Remote User Terminated Connection: the peripheral closed the link.
    public static let remoteUserTerminated = DisconnectionReason(rawValue: 0x13)
    /// 0x14 Remote Device Terminated due to Low Resources.
    public static let remoteLowResources = DisconnectionReason(rawValue: 0x14)
    /// 0x15 Remote Device Terminated due to Power Off.
    public static let remotePowerOff = DisconnectionReason(rawValue: 0x15)
    /// 0x16 Connection Terminated by Local Host: the app (or the adapter powering off) closed it.
    public static let localHostTerminated = DisconnectionReason(rawValue: 0x16)
    /// 0x22 LL Response Timeout.
    public static let llResponseTimeout = DisconnectionReason(rawValue: 0x22)
    /// 0x3B Unacceptable Connection Parameters.
    public static let unacceptableParameters = DisconnectionReason(rawValue: 0x3B)
    /// 0x3D Connection Terminated due to MIC Failure.
    public static let micFailure = DisconnectionReason(rawValue: 0x3D)
    /// 0x3E Connection Failed to be Established.
    public static let failedToEstablish = DisconnectionReason(rawValue: 0x3E)

    /// Whether the app itself ended the link.
    public var isLocal: Bool { self == .localHostTerminated }

    /// The specification's name, with the code: `Connection Timeout (0x08)`.
    public var description: String {
        let names: [UInt8: String] = [
            0x08: "Connection Timeout", 0x13: "Remote User Terminated Connection",
            0x14: "Remote Device Terminated due to Low Resources", 0x15: "Remote Device Terminated due to Power Off",
            0x16: "Connection Terminated by Local Host", 0x22: "LL Response Timeout",
            0x3B: "Unacceptable Connection Parameters", 0x3D: "Connection Terminated due to MIC Failure",
            0x3E: "Connection Failed to be Established",
        ]
        let digits = String(rawValue, radix: 16, uppercase: true)
        return "\(names[rawValue] ?? "HCI error") (0x\(digits.count == 1 ? "0" : "")\(digits))"
    }
}
