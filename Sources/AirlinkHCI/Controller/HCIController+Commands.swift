import AirlinkCore

extension HCIController {
    /// HCI status codes the controller answers with (Core Spec Vol 1, Part F).
    enum Status {
        static let success: UInt8 = 0x00
        static let unknownCommand: UInt8 = 0x01
        static let unknownConnection: UInt8 = 0x02
        static let memoryCapacityExceeded: UInt8 = 0x07
        static let pinOrKeyMissing: UInt8 = 0x06
        static let commandDisallowed: UInt8 = 0x0C
        static let unsupportedParameter: UInt8 = 0x11
        static let invalidParameters: UInt8 = 0x12
    }

    /// Every command this controller answers, in Read Local Supported Commands' bit layout (Vol 4, Part E,
    /// 6.27): octet and bit of each.
    static let supportedCommandBits: [(octet: Int, bit: Int)] = [
        (0, 5),  // Disconnect
        (5, 6), (5, 7),  // Set Event Mask, Reset
        (14, 3), (14, 5), (14, 7),  // Read Local Version, Read Local Supported Features, Read Buffer Size
        (15, 1), (15, 5),  // Read BD_ADDR, Read RSSI
        (24, 6),  // Write LE Host Support
        (25, 0), (25, 1), (25, 2), (25, 4),  // LE Set Event Mask, LE Read Buffer Size, LE features, random address
        (25, 6), (25, 7), (26, 0),  // LE Read Advertising Channel Tx Power, Set Advertising and Scan Response Data
        (26, 2), (26, 3), (26, 4), (26, 5),  // LE scan parameters, scan enable, create connection and cancel
        (26, 6), (26, 7), (27, 0), (27, 1),  // LE Filter Accept List: read size, clear, add, remove
        (27, 2), (27, 5), (28, 3),  // LE Connection Update, LE Read Remote Features, LE Read Supported States
        (28, 0),  // LE Enable Encryption
        (33, 6), (33, 7), (34, 0),  // LE Set Data Length, Read and Write Suggested Default Data Length
        (35, 3), (35, 4), (35, 5), (35, 6),  // LE Read Maximum Data Length, Read PHY, Set Default PHY, Set PHY
    ]

    /// The LE features of this controller and of the simulated peers (Vol 6, Part B, 4.6): LE Encryption (bit 0),
    /// LE Data Packet Length Extension (bit 5) and LE 2M PHY (bit 8), which the controller serves.
    static let leFeatures: [UInt8] = [0x21, 0x01, 0, 0, 0, 0, 0, 0]

    /// The states and combinations this controller supports (LE Read Supported States, Vol 4, Part E, 7.8.27):
    /// passive and active scanning (bits 4, 5), initiating and the central role (6), scanning while initiating
    /// (22, 23) and while central (24, 25), initiating while central and several links as central (28). No
    /// advertising and no peripheral role.
    static let supportedStates: UInt64 = 1 << 4 | 1 << 5 | 1 << 6 | 1 << 22 | 1 << 23 | 1 << 24 | 1 << 25 | 1 << 28

    static var supportedCommands: [UInt8] {
        var octets = [UInt8](repeating: 0, count: 64)
        for (octet, bit) in supportedCommandBits { octets[octet] |= 1 << bit }
        return octets
    }

    mutating func handle(_ command: HCICommand) -> [Action] {
        let opcode = command.opcode
        let parameters = command.parameters
        func complete(_ returned: [UInt8] = []) -> [Action] {
            [Self.send(.commandComplete(opcode, [Status.success] + returned))]
        }
        func needs(_ count: Int) -> Bool { parameters.count == count }
        func refuse(_ status: UInt8) -> [Action] { [Self.send(.commandComplete(opcode, [status]))] }
        switch opcode {
        case .reset:
            return reset() + complete()
        case .setEventMask where needs(8):
            eventMask = Self.little64(parameters)
            return complete()
        case .leSetEventMask where needs(8):
            leEventMask = Self.little64(parameters)
            return complete()
        case .writeLEHostSupport where needs(2):
            return complete()
        case .leSetScanParameters where needs(7):
            guard !scanning else { return refuse(Status.commandDisallowed) }
            // Policies 0x02 and 0x03 (directed advertising to a resolvable address) need privacy, which this
            // controller lacks.
            guard parameters[6] <= 0x01 else { return refuse(Status.unsupportedParameter) }
            activeScan = parameters[0] == 0x01
            scanFilterPolicy = parameters[6]
            return complete()
        case .readLocalVersion:
            // HCI 5.3 (0x0C), revision 0, LMP 5.3, company 0xFFFF (none), subversion 0.
            return complete([0x0C, 0x00, 0x00, 0x0C, 0xFF, 0xFF, 0x00, 0x00])
        case .readLocalSupportedCommands:
            return complete(Self.supportedCommands)
        case .readLocalSupportedFeatures:
            // Byte 4: bit 5 BR/EDR Not Supported, bit 6 LE Supported (Controller).
            return complete([0, 0, 0, 0, 0x60, 0, 0, 0])
        case .readBufferSize:
            var returned: [UInt8] = []
            returned.appendLittle16(Self.aclDataLength)
            returned.append(0)
            returned.appendLittle16(UInt16(Self.aclPacketCount))
            returned.appendLittle16(0)
            return complete(returned)
        case .readBDAddress:
            return complete(DeviceID(address).hciAddress)
        case .leReadBufferSize:
            var returned: [UInt8] = []
            returned.appendLittle16(Self.aclDataLength)
            returned.append(Self.aclPacketCount)
            return complete(returned)
        case .leReadLocalSupportedFeatures:
            return complete(Self.leFeatures)
        case .leReadSupportedStates:
            return complete((0..<8).map { UInt8(truncatingIfNeeded: Self.supportedStates >> UInt64(8 * $0)) })
        case .leReadAdvertisingChannelTxPower:
            return complete([0x00])  // 0 dBm
        case .leSetAdvertisingData where needs(32) && parameters[0] <= 31,
            .leSetScanResponseData where needs(32) && parameters[0] <= 31:
            // Kept for an advertising this controller does not do (Linux writes both at every power-on).
            return complete()
        case .leReadFilterAcceptListSize, .leClearFilterAcceptList, .leAddDeviceToFilterAcceptList,
            .leRemoveDeviceFromFilterAcceptList:
            return filterAcceptList(command)
        case .leReadRemoteFeatures where needs(2):
            return readRemoteFeatures(UInt16(parameters[0]) | UInt16(parameters[1]) << 8)
        case .leConnectionUpdate:
            return updateConnection(parameters)
        case .leEnableEncryption:
            return enableEncryption(parameters)
        case .leSetRandomAddress where needs(6):
            randomAddress = DeviceID(hciAddress: parameters, type: 1).address
            return complete()
        case .leSetScanEnable where needs(2):
            return setScan(enabled: parameters[0] == 0x01, filterDuplicates: parameters[1] == 0x01) + complete()
        case .readRSSI where needs(2):
            let handle = UInt16(parameters[0]) | UInt16(parameters[1]) << 8
            guard let connection = connections[handle] else {
                return [Self.send(.commandComplete(opcode, [Status.unknownConnection] + parameters + [0x7F]))]
            }
            // Answered when the radio has measured the link (Input.linkRSSI).
            rssiRequests.append((handle, connection.device))
            return [.readRSSI(connection.device)]
        case .leCreateConnection:
            return createConnection(parameters)
        case .leCreateConnectionCancel:
            guard let pending, !cancelling else { return refuse(Status.commandDisallowed) }
            cancelling = true
            return complete() + [.cancelConnect(pending.device)]
        case .disconnect:
            return disconnect(parameters)
        case .leSetDataLength, .leReadSuggestedDefaultDataLength, .leWriteSuggestedDefaultDataLength,
            .leReadMaximumDataLength, .leReadPHY, .leSetDefaultPHY, .leSetPHY:
            return linkLayer(command)
        case .setEventMask, .leSetEventMask, .writeLEHostSupport, .leSetScanParameters, .leSetRandomAddress,
            .leSetScanEnable, .readRSSI, .leSetAdvertisingData, .leSetScanResponseData:
            return refuse(Status.invalidParameters)
        case .leReadRemoteFeatures:
            return [Self.send(.commandStatus(Status.invalidParameters, opcode))]
        default:
            return [
                .note(
                    "unknown HCI command \(opcode) (OGF 0x\(String(opcode.ogf, radix: 16)), OCF 0x"
                        + "\(String(opcode.ocf, radix: 16))): Command Status 0x01 Unknown HCI Command"),
                Self.send(.commandStatus(Status.unknownCommand, opcode)),
            ]
        }
    }

    private mutating func reset() -> [Action] {
        var actions: [Action] = scanning ? [.stopScan] : []
        if let pending { actions.append(.cancelConnect(pending.device)) }
        for handle in connectionHandles { actions.append(.disconnect(connections[handle]!.device)) }
        // The peripherals' bonds and randoms are theirs, not the controller's: a Reset keeps them.
        let (bonds, random) = (self.bonds, self.random)
        self = HCIController(address: address)
        self.bonds = bonds
        self.random = random
        return actions
    }

    private mutating func setScan(enabled: Bool, filterDuplicates: Bool) -> [Action] {
        scanning = enabled
        return enabled ? [.startScan(active: activeScan, filterDuplicates: filterDuplicates)] : [.stopScan]
    }

    private mutating func createConnection(_ parameters: [UInt8]) -> [Action] {
        let opcode = HCIOpcode.leCreateConnection
        guard parameters.count == 25 else { return [Self.send(.commandStatus(Status.invalidParameters, opcode))] }
        guard pending == nil else { return [Self.send(.commandStatus(Status.commandDisallowed, opcode))] }
        guard parameters[4] == 0x00 else {
            return [
                .note("LE Create Connection with the Filter Accept List is not supported; name the peer"),
                Self.send(.commandStatus(Status.unsupportedParameter, opcode)),
            ]
        }
        let device = DeviceID(hciAddress: Array(parameters[6..<12]), type: parameters[5])
        func field(_ at: Int) -> UInt16 { UInt16(parameters[at]) | UInt16(parameters[at + 1]) << 8 }
        let request = ConnectionRequest(interval: field(15), latency: field(17), supervisionTimeout: field(19))
        pending = (device, request, parameters[12])
        cancelling = false
        droppedWhileConnecting = nil
        return [Self.send(.commandStatus(Status.success, opcode)), .connect(device, request)]
    }

    private mutating func disconnect(_ parameters: [UInt8]) -> [Action] {
        guard parameters.count == 3 else { return [Self.send(.commandStatus(Status.invalidParameters, .disconnect))] }
        let handle = UInt16(parameters[0]) | UInt16(parameters[1]) << 8
        guard let connection = connections[handle] else {
            return [Self.send(.commandStatus(Status.unknownConnection, .disconnect))]
        }
        return [Self.send(.commandStatus(Status.success, .disconnect)), .disconnect(connection.device)]
    }

    static func little64(_ bytes: [UInt8]) -> UInt64 {
        bytes.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
    }
}
