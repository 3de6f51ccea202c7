import AirlinkCore

extension HCIController {
    /// The longest payload a link carries (LE Read Maximum Data Length), and its air time on LE 1M (µs).
    static let maximumOctets: UInt16 = 251
    static let maximumTime: UInt16 = 2_120

    /// Data length and PHY commands (Vol 4, Part E, 7.8.33–35 and 7.8.46–49): the link's payload size and PHY,
    /// which the simulated peer always accepts; LE Data Length Change and LE PHY Update Complete follow when
    /// they change something and the host unmasked them.
    mutating func linkLayer(_ command: HCICommand) -> [Action] {
        let opcode = command.opcode
        let parameters = command.parameters
        func complete(_ returned: [UInt8]) -> [Action] { [Self.send(.commandComplete(opcode, returned))] }
        func field(_ at: Int) -> UInt16 { UInt16(parameters[at]) | UInt16(parameters[at + 1]) << 8 }
        func valid(octets: UInt16, time: UInt16) -> Bool {
            (27...251).contains(octets) && (328...17_040).contains(time)
        }
        var both: [UInt8] = []
        switch opcode {
        case .leReadSuggestedDefaultDataLength:
            both.appendLittle16(suggestedTxOctets)
            both.appendLittle16(suggestedTxTime)
            return complete([Status.success] + both)
        case .leWriteSuggestedDefaultDataLength where parameters.count == 4:
            guard valid(octets: field(0), time: field(2)) else { return complete([Status.invalidParameters]) }
            suggestedTxOctets = field(0)
            suggestedTxTime = min(field(2), Self.maximumTime)
            return complete([Status.success])
        case .leReadMaximumDataLength:
            for value in [Self.maximumOctets, Self.maximumTime, Self.maximumOctets, Self.maximumTime] {
                both.appendLittle16(value)
            }
            return complete([Status.success] + both)
        case .leSetDataLength where parameters.count == 6:
            let handle = field(0)
            guard var connection = connections[handle] else {
                return complete([Status.unknownConnection] + parameters.prefix(2))
            }
            guard valid(octets: field(2), time: field(4)) else {
                return complete([Status.invalidParameters] + parameters.prefix(2))
            }
            let octets = field(2)
            let time = min(field(4), Self.maximumTime)
            var actions = complete([Status.success] + parameters.prefix(2))
            if (octets, time) != (connection.txOctets, connection.txTime) {
                connection.txOctets = octets
                connection.txTime = time
                connections[handle] = connection
                if enabled(leEvent: 0x07) {
                    actions.append(
                        Self.send(
                            .leDataLengthChange(
                                handle: handle, txOctets: octets, txTime: time, rxOctets: octets, rxTime: time)))
                }
            }
            return actions
        case .leReadPHY where parameters.count == 2:
            guard let connection = connections[field(0)] else {
                return complete([Status.unknownConnection] + parameters + [0, 0])
            }
            return complete([Status.success] + parameters + [connection.phy, connection.phy])
        case .leSetDefaultPHY where parameters.count == 3:
            guard parameters[1] & ~0x03 == 0, parameters[2] & ~0x03 == 0 else {
                return complete([Status.unsupportedParameter])
            }
            defaultPHYs = parameters[0] & 0x01 != 0 ? 0x03 : parameters[1] & parameters[2]
            return complete([Status.success])
        case .leSetPHY where parameters.count == 7:
            let handle = field(0)
            guard var connection = connections[handle] else {
                return [Self.send(.commandStatus(Status.unknownConnection, opcode))]
            }
            // No preference (All_PHYs bit set) leaves the PHY as it is; LE 2M when both ways allow it, else LE 1M.
            let allowed =
                (parameters[2] & 0x01 != 0 ? 0x03 : parameters[3]) & (parameters[2] & 0x02 != 0 ? 0x03 : parameters[4])
            let phy: UInt8 = parameters[2] & 0x03 == 0x03 ? connection.phy : (allowed & 0x02 != 0 ? 2 : 1)
            connection.phy = phy
            connections[handle] = connection
            var actions: [Action] = [Self.send(.commandStatus(Status.success, opcode))]
            if enabled(leEvent: 0x0C) {
                actions.append(
                    Self.send(.lePHYUpdateComplete(status: Status.success, handle: handle, tx: phy, rx: phy)))
            }
            return actions
        default:
            // A wrong parameter length (the cases above check theirs).
            return opcode == .leSetPHY
                ? [Self.send(.commandStatus(Status.invalidParameters, opcode))]
                : complete([Status.invalidParameters])
        }
    }
}
