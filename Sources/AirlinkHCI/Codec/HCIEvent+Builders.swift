import AirlinkCore

extension HCIEvent {
    /// Command Complete (0x0E): one more command may be sent; `returnParameters` start with the status
    /// (Core Spec Vol 4, Part E, 7.7.14).
    public static func commandComplete(_ opcode: HCIOpcode, _ returnParameters: [UInt8]) -> HCIEvent {
        var parameters: [UInt8] = [0x01]
        parameters.appendLittle16(opcode.rawValue)
        return HCIEvent(code: 0x0E, parameters: parameters + returnParameters)
    }

    /// Command Status (0x0F): the command was accepted (`status` 0) or refused (7.7.15).
    public static func commandStatus(_ status: UInt8, _ opcode: HCIOpcode) -> HCIEvent {
        var parameters: [UInt8] = [status, 0x01]
        parameters.appendLittle16(opcode.rawValue)
        return HCIEvent(code: 0x0F, parameters: parameters)
    }

    /// Disconnection Complete (0x05) with the link's HCI reason (7.7.5).
    public static func disconnectionComplete(handle: UInt16, reason: UInt8) -> HCIEvent {
        var parameters: [UInt8] = [0x00]
        parameters.appendLittle16(handle)
        parameters.append(reason)
        return HCIEvent(code: 0x05, parameters: parameters)
    }

    /// Encryption Change [v1] (0x08): the link's encryption is on (`enabled` 0x01) or the attempt failed (7.7.8).
    public static func encryptionChange(status: UInt8, handle: UInt16, enabled: Bool) -> HCIEvent {
        var parameters: [UInt8] = [status]
        parameters.appendLittle16(handle)
        parameters.append(enabled ? 0x01 : 0x00)
        return HCIEvent(code: 0x08, parameters: parameters)
    }

    /// Number Of Completed Packets (0x13) for one handle (7.7.19).
    public static func numberOfCompletedPackets(handle: UInt16, count: UInt16) -> HCIEvent {
        var parameters: [UInt8] = [0x01]
        parameters.appendLittle16(handle)
        parameters.appendLittle16(count)
        return HCIEvent(code: 0x13, parameters: parameters)
    }

    /// The LE Meta event (0x3E) code.
    public static let leMetaCode: UInt8 = 0x3E

    /// LE Connection Complete (LE Meta subevent 0x01), the controller as central (7.7.65.1).
    ///
    /// - Parameters:
    ///   - status: 0 when the link is up; otherwise the error, with the other fields as the host asked.
    ///   - handle: the connection handle.
    ///   - peer: the peripheral's address.
    ///   - interval: the connection interval in 1.25 ms units.
    ///   - latency: the peripheral latency in connection events.
    ///   - supervisionTimeout: the supervision timeout in 10 ms units.
    public static func leConnectionComplete(
        status: UInt8, handle: UInt16, peer: DeviceID, interval: UInt16, latency: UInt16, supervisionTimeout: UInt16
    ) -> HCIEvent {
        var parameters: [UInt8] = [0x01, status]
        parameters.appendLittle16(handle)
        parameters.append(0x00)  // role: central
        parameters.append(peer.hciAddressType)
        parameters += peer.hciAddress
        parameters.appendLittle16(interval)
        parameters.appendLittle16(latency)
        parameters.appendLittle16(supervisionTimeout)
        parameters.append(0x00)  // central clock accuracy: 500 ppm
        return HCIEvent(code: leMetaCode, parameters: parameters)
    }

    /// LE Enhanced Connection Complete [v1] (7.7.65.10): LE Connection Complete's fields with the local and peer
    /// resolvable private addresses (none here: zeros) between the peer's address and the interval.
    public static func leEnhancedConnectionComplete(
        status: UInt8, handle: UInt16, peer: DeviceID, interval: UInt16, latency: UInt16, supervisionTimeout: UInt16
    ) -> HCIEvent {
        let legacy = leConnectionComplete(
            status: status, handle: handle, peer: peer, interval: interval, latency: latency,
            supervisionTimeout: supervisionTimeout
        ).parameters
        return HCIEvent(
            code: leMetaCode, parameters: [0x0A] + legacy[1..<12] + [UInt8](repeating: 0, count: 12) + legacy[12...])
    }

    /// LE Data Length Change (7.7.65.7): the link's maximum payload octets and air times, each way.
    public static func leDataLengthChange(
        handle: UInt16, txOctets: UInt16, txTime: UInt16, rxOctets: UInt16, rxTime: UInt16
    )
        -> HCIEvent
    {
        var parameters: [UInt8] = [0x07]
        parameters.appendLittle16(handle)
        for field in [txOctets, txTime, rxOctets, rxTime] { parameters.appendLittle16(field) }
        return HCIEvent(code: leMetaCode, parameters: parameters)
    }

    /// LE PHY Update Complete (7.7.65.12): the PHY each way (1: LE 1M, 2: LE 2M).
    public static func lePHYUpdateComplete(status: UInt8, handle: UInt16, tx: UInt8, rx: UInt8) -> HCIEvent {
        var parameters: [UInt8] = [0x0C, status]
        parameters.appendLittle16(handle)
        parameters += [tx, rx]
        return HCIEvent(code: leMetaCode, parameters: parameters)
    }

    /// LE Connection Update Complete (7.7.65.3): the link's parameters after LE Connection Update.
    public static func leConnectionUpdateComplete(
        status: UInt8, handle: UInt16, interval: UInt16, latency: UInt16, supervisionTimeout: UInt16
    ) -> HCIEvent {
        var parameters: [UInt8] = [0x03, status]
        parameters.appendLittle16(handle)
        for field in [interval, latency, supervisionTimeout] { parameters.appendLittle16(field) }
        return HCIEvent(code: leMetaCode, parameters: parameters)
    }

    /// LE Read Remote Features Complete (7.7.65.4): the peer's LE features (8 octets, Vol 6, Part B, 4.6).
    public static func leReadRemoteFeaturesComplete(status: UInt8, handle: UInt16, features: [UInt8]) -> HCIEvent {
        var parameters: [UInt8] = [0x04, status]
        parameters.appendLittle16(handle)
        parameters += features.prefix(8) + [UInt8](repeating: 0, count: max(0, 8 - features.count))
        return HCIEvent(code: leMetaCode, parameters: parameters)
    }

    /// The event types of a legacy advertising report (7.7.65.2).
    public enum AdvertisingReportType: UInt8, Sendable {
        /// ADV_IND: connectable and scannable undirected.
        case connectable = 0x00
        /// ADV_SCAN_IND: scannable undirected, not connectable.
        case scannable = 0x02
        /// ADV_NONCONN_IND: non-connectable undirected.
        case nonConnectable = 0x03
        /// SCAN_RSP.
        case scanResponse = 0x04
    }

    /// LE Advertising Report (LE Meta subevent 0x02) with one report (7.7.65.2). Legacy data is at most 31
    /// bytes; longer data is cut there.
    public static func leAdvertisingReport(
        _ type: AdvertisingReportType, from device: DeviceID, data: [UInt8], rssi: Int8
    ) -> HCIEvent {
        let data = Array(data.prefix(31))
        var parameters: [UInt8] = [0x02, 0x01, type.rawValue, device.hciAddressType]
        parameters += device.hciAddress
        parameters.append(UInt8(data.count))
        parameters += data
        parameters.append(UInt8(bitPattern: rssi))
        return HCIEvent(code: leMetaCode, parameters: parameters)
    }
}

extension DeviceID {
    /// The address as HCI carries it, least significant byte first (zeros for an opaque identifier).
    public var hciAddress: [UInt8] {
        let value = address?.value ?? 0
        return (0..<6).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
    }

    /// 0x00 for a public address, 0x01 for a random one.
    public var hciAddressType: UInt8 { addressType == .random ? 0x01 : 0x00 }

    /// The device at an HCI address (least significant byte first) of an HCI address type.
    public init(hciAddress bytes: [UInt8], type: UInt8) {
        var value: UInt64 = 0
        for (index, byte) in bytes.prefix(6).enumerated() { value |= UInt64(byte) << UInt64(8 * index) }
        self.init(BDAddress(value: value), type: type & 0x01 == 1 ? .random : .public)
    }
}
