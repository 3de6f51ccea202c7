import AirlinkCore

extension HCIController {
    mutating func advertised(
        _ device: DeviceID, _ data: [UInt8], _ response: [UInt8]?, _ connectable: Bool, _ level: Int8
    ) -> [Action] {
        guard scanning, enabled(leEvent: 0x02), scanAdmits(device) else { return [] }
        // ADV_IND is scannable; a peripheral that is not connectable but has a scan response sends ADV_SCAN_IND.
        let scannable = connectable || response != nil
        let type: HCIEvent.AdvertisingReportType = connectable ? .connectable : scannable ? .scannable : .nonConnectable
        var actions = [Self.send(.leAdvertisingReport(type, from: device, data: data, rssi: level))]
        // An active scanner's SCAN_REQ to a scannable advertiser is answered, with empty data when the peripheral
        // has none (Linux holds a scannable advertiser's report until its scan response comes).
        if activeScan, scannable {
            actions.append(
                Self.send(.leAdvertisingReport(.scanResponse, from: device, data: response ?? [], rssi: level)))
        }
        return actions
    }

    mutating func connected(_ device: DeviceID) -> [Action] {
        guard let pending, pending.device == device else {
            return [.note("a link to \(device) came up that the host did not ask for; ended"), .disconnect(device)]
        }
        self.pending = nil
        let handle = nextHandle
        nextHandle = nextHandle >= HCIACLPacket.maximumHandle ? 0x0040 : nextHandle + 1
        let own = pending.ownAddressType & 0x01 == 1 ? randomAddress.map { DeviceID($0, type: .random) } : nil
        let initiator = own ?? DeviceID(address)
        var connection = Connection(
            device: device, request: pending.request,
            securityManager: SMPResponder(
                initiator: (initiator.hciAddress, initiator.hciAddressType),
                responder: (device.hciAddress, device.hciAddressType)))
        connection.txOctets = suggestedTxOctets
        connection.txTime = suggestedTxTime
        connections[handle] = connection
        var actions = connectionComplete(status: 0, handle: handle, pending)
        if let reason = droppedWhileConnecting {
            droppedWhileConnecting = nil
            actions += disconnected(device, reason)
        }
        return actions
    }

    /// LE Enhanced Connection Complete when the host unmasked it (it then replaces the legacy event, 7.7.65.10),
    /// LE Connection Complete when that is on, nothing otherwise.
    private func connectionComplete(
        status: UInt8, handle: UInt16, _ pending: (device: DeviceID, request: ConnectionRequest, ownAddressType: UInt8)
    ) -> [Action] {
        let request = pending.request
        if enabled(leEvent: 0x0A) {
            return [
                Self.send(
                    .leEnhancedConnectionComplete(
                        status: status, handle: handle, peer: pending.device, interval: request.interval,
                        latency: request.latency, supervisionTimeout: request.supervisionTimeout))
            ]
        }
        guard enabled(leEvent: 0x01) else { return [] }
        return [
            Self.send(
                .leConnectionComplete(
                    status: status, handle: handle, peer: pending.device, interval: request.interval,
                    latency: request.latency, supervisionTimeout: request.supervisionTimeout))
        ]
    }

    /// Read RSSI's Command Complete, once the radio measured the link: for the oldest request on that link.
    mutating func measured(_ device: DeviceID, _ level: Int8?) -> [Action] {
        guard let index = rssiRequests.firstIndex(where: { $0.device == device }) else { return [] }
        let handle = rssiRequests.remove(at: index).handle
        var returned: [UInt8] = [level == nil ? Status.unknownConnection : Status.success]
        returned.appendLittle16(handle)
        returned.append(UInt8(bitPattern: level ?? 127))
        return [Self.send(.commandComplete(.readRSSI, returned))]
    }

    mutating func connectionFailed(_ device: DeviceID, _ status: UInt8) -> [Action] {
        guard let pending, pending.device == device else { return [] }
        self.pending = nil
        droppedWhileConnecting = nil
        let status = cancelling ? Status.unknownConnection : status
        cancelling = false
        return connectionComplete(status: status, handle: 0, pending)
    }

    mutating func disconnected(_ device: DeviceID, _ reason: UInt8) -> [Action] {
        guard let handle = handle(of: device) else {
            if pending?.device == device { droppedWhileConnecting = reason }
            return []
        }
        connections[handle] = nil
        guard enabled(event: 0x05) else { return [] }
        return [Self.send(.disconnectionComplete(handle: handle, reason: reason))]
    }

    /// An ACL packet from the host: reassembled into L2CAP frames; ATT goes to the peripheral, LE signalling
    /// and SMP are refused, other channels dropped. Every packet for a live handle is counted back at once in
    /// Number Of Completed Packets (the buffer frees as soon as the radio has the frame).
    mutating func handle(_ packet: HCIACLPacket) -> [Action] {
        guard var connection = connections[packet.handle] else {
            return [.note("ACL data for unknown handle \(packet.handle) dropped")]
        }
        var actions: [Action] = []
        var frame: L2CAPFrame?
        do {
            frame = try connection.reassembler.append(packet)
        } catch {
            actions.append(.note(error.message))
        }
        connections[packet.handle] = connection
        if let frame {
            actions +=
                frame.channel == L2CAPFrame.smpChannel
                ? securityManager(frame.payload, handle: packet.handle) : route(frame, connection)
        }
        actions.append(Self.send(.numberOfCompletedPackets(handle: packet.handle, count: 1)))
        return actions
    }

    private func route(_ frame: L2CAPFrame, _ connection: Connection) -> [Action] {
        switch frame.channel {
        case L2CAPFrame.attChannel:
            return [.sendATT(connection.device, frame.payload)]
        case L2CAPFrame.leSignallingChannel:
            guard let answer = L2CAPRefusals.signalling(frame.payload) else { return [] }
            return toHost(L2CAPFrame(channel: frame.channel, payload: answer), connection.device)
        default:
            return [.note("L2CAP channel 0x\(String(frame.channel, radix: 16)) is not served; frame dropped")]
        }
    }

    mutating func fromPeripheral(_ device: DeviceID, _ pdu: [UInt8]) -> [Action] {
        toHost(L2CAPFrame(channel: L2CAPFrame.attChannel, payload: pdu), device)
    }

    func toHost(_ frame: L2CAPFrame, _ device: DeviceID) -> [Action] {
        guard let handle = handle(of: device) else { return [] }
        return HCIACLPacket.fragments(of: frame.encoded, handle: handle, maximumLength: Int(Self.aclDataLength))
            .map { .send(.acl($0)) }
    }
}
