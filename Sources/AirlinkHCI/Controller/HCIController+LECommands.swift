import AirlinkCore

extension HCIController {
    /// The LE Filter Accept List's commands (Vol 4, Part E, 7.8.14–17). Scanning with filter policy 0x01
    /// reports only the advertisers on the list; the list cannot change while that scan runs (7.8.16).
    mutating func filterAcceptList(_ command: HCICommand) -> [Action] {
        let opcode = command.opcode
        let parameters = command.parameters
        func complete(_ returned: [UInt8]) -> [Action] { [Self.send(.commandComplete(opcode, returned))] }
        if opcode == .leReadFilterAcceptListSize {
            return complete([Status.success, Self.acceptListSize])
        }
        guard !(scanning && scanFilterPolicy == 0x01) else { return complete([Status.commandDisallowed]) }
        switch opcode {
        case .leClearFilterAcceptList where parameters.isEmpty:
            acceptList = []
            return complete([Status.success])
        case .leAddDeviceToFilterAcceptList where parameters.count == 7 && parameters[0] <= 0x01:
            let device = DeviceID(hciAddress: Array(parameters[1...]), type: parameters[0])
            guard !acceptList.contains(device) else { return complete([Status.success]) }
            guard acceptList.count < Int(Self.acceptListSize) else {
                return complete([Status.memoryCapacityExceeded])
            }
            acceptList.append(device)
            return complete([Status.success])
        case .leRemoveDeviceFromFilterAcceptList where parameters.count == 7 && parameters[0] <= 0x01:
            let device = DeviceID(hciAddress: Array(parameters[1...]), type: parameters[0])
            acceptList.removeAll { $0 == device }
            return complete([Status.success])
        default:
            // A wrong length, or address type 0xFF (anonymous advertisements), which this controller never reports.
            return complete([Status.invalidParameters])
        }
    }

    /// Whether a scan with the host's filter policy reports `device`.
    func scanAdmits(_ device: DeviceID) -> Bool {
        scanFilterPolicy == 0x00 || acceptList.contains(device)
    }

    /// LE Read Remote Features (7.8.21): Command Status, then LE Read Remote Features Complete with the peer's
    /// features. Linux asks after every link comes up and ends the link when it gets no answer.
    func readRemoteFeatures(_ handle: UInt16) -> [Action] {
        guard connections[handle] != nil else {
            return [Self.send(.commandStatus(Status.unknownConnection, .leReadRemoteFeatures))]
        }
        var actions = [Self.send(.commandStatus(Status.success, .leReadRemoteFeatures))]
        if enabled(leEvent: 0x04) {
            actions.append(
                Self.send(
                    .leReadRemoteFeaturesComplete(status: Status.success, handle: handle, features: Self.leFeatures)))
        }
        return actions
    }

    /// LE Connection Update (7.8.18): the ranges of 7.8.12 checked, then the peer accepts and the link takes the
    /// largest interval asked for, reported by LE Connection Update Complete.
    mutating func updateConnection(_ parameters: [UInt8]) -> [Action] {
        let opcode = HCIOpcode.leConnectionUpdate
        func status(_ code: UInt8) -> [Action] { [Self.send(.commandStatus(code, opcode))] }
        guard parameters.count == 14 else { return status(Status.invalidParameters) }
        func field(_ at: Int) -> UInt16 { UInt16(parameters[at]) | UInt16(parameters[at + 1]) << 8 }
        let handle = field(0)
        guard var connection = connections[handle] else { return status(Status.unknownConnection) }
        let minimum = field(2)
        let maximum = field(4)
        let latency = field(6)
        let timeout = field(8)
        // The supervision timeout must exceed (1 + latency) × interval × 2 (in ms: timeout × 10 against
        // (1 + latency) × maximum × 1.25 × 2).
        guard (6...3200).contains(minimum), (minimum...3200).contains(maximum), latency <= 499,
            (10...3200).contains(timeout), Int(timeout) * 4 > (1 + Int(latency)) * Int(maximum)
        else { return status(Status.invalidParameters) }
        connection.request = ConnectionRequest(interval: maximum, latency: latency, supervisionTimeout: timeout)
        connections[handle] = connection
        var actions = status(Status.success)
        if enabled(leEvent: 0x03) {
            actions.append(
                Self.send(
                    .leConnectionUpdateComplete(
                        status: Status.success, handle: handle, interval: maximum, latency: latency,
                        supervisionTimeout: timeout)))
        }
        return actions
    }
}
