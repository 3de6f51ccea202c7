import AirlinkCore

/// The decisions of an LE controller in the central role, as a synchronous state machine: the host's
/// packets and the radio's happenings go in, packets for the host and requests to the radio come out
/// (Core Spec Vol 4, Part E).
///
/// The controller is the central; the world's simulated peripherals are its peers. It knows nothing of
/// sockets or simulations: ``HCIControllerServer`` feeds it and carries out its actions.
public struct HCIController: Sendable {
    /// What happened: a packet from the host, or something on the air.
    public enum Input: Sendable, Equatable {
        /// A packet from the host.
        case host(HCIPacket)
        /// A scanning central heard an advertisement (and, scanning actively, its scan response).
        case advertisement(DeviceID, data: [UInt8], scanResponse: [UInt8]?, isConnectable: Bool, rssi: Int8)
        /// The link to a peripheral is up.
        case connected(DeviceID)
        /// Connecting failed with an HCI status, or was cancelled (0x02 after a Create Connection Cancel).
        case connectionFailed(DeviceID, status: UInt8)
        /// The link went down with an HCI reason.
        case disconnected(DeviceID, reason: UInt8)
        /// A peripheral sent an ATT PDU.
        case att(DeviceID, [UInt8])
        /// The radio measured the link's RSSI (``Action/readRSSI(_:)``), `nil` when the link was gone.
        case linkRSSI(DeviceID, Int8?)
    }

    /// What the owner must do.
    public enum Action: Sendable, Equatable {
        /// Send this packet to the host.
        case send(HCIPacket)
        /// Start (or restart) scanning.
        case startScan(active: Bool, filterDuplicates: Bool)
        /// Stop scanning.
        case stopScan
        /// Connect to a peripheral with the link parameters the host asked for.
        case connect(DeviceID, ConnectionRequest)
        /// Give up the attempt to connect to a peripheral.
        case cancelConnect(DeviceID)
        /// End the link to a peripheral.
        case disconnect(DeviceID)
        /// Carry an ATT PDU to a connected peripheral.
        case sendATT(DeviceID, [UInt8])
        /// Measure the RSSI of the link to a peripheral (the radio's path-loss model); answer with
        /// ``Input/linkRSSI(_:_:)``.
        case readRSSI(DeviceID)
        /// The host encrypted the link to a peripheral with a key the peripheral holds: its server grants `level`.
        case encrypted(DeviceID, level: LinkSecurityLevel, keySize: Int)
        /// Say something for the trace.
        case note(String)
    }

    /// What LE Create Connection asked for, in the specification's units.
    public struct ConnectionRequest: Sendable, Equatable {
        /// The largest connection interval, in 1.25 ms units.
        public var interval: UInt16
        /// The peripheral latency, in connection events.
        public var latency: UInt16
        /// The supervision timeout, in 10 ms units.
        public var supervisionTimeout: UInt16
    }

    struct Connection: Sendable {
        var device: DeviceID
        var request: ConnectionRequest
        var reassembler = L2CAPReassembler()
        /// The link's maximum transmitted payload octets and air time (LE Set Data Length), the same each way.
        var txOctets: UInt16 = 27
        var txTime: UInt16 = 328
        /// The link's PHY each way (1: LE 1M, 2: LE 2M).
        var phy: UInt8 = 1
        /// The peripheral's Security Manager on this link.
        var securityManager: SMPResponder
        /// The key of the pairing just run, until the host encrypts with it: legacy's STK or Secure Connections' LTK.
        var shortTermKey: (key: [UInt8], keySize: Int, bonding: Bool, secureConnections: Bool)?
    }

    /// The keys a peripheral keeps for the host after a pairing with bonding (3.6.1): what it distributed.
    struct Bond: Sendable, Equatable {
        var ltk: [UInt8]
        var ediv: UInt16
        var rand: [UInt8]
        var keySize: Int
    }

    /// The controller's public address (Read BD_ADDR).
    public let address: BDAddress
    /// The longest ACL data packet the controller takes (LE Read Buffer Size).
    public static let aclDataLength: UInt16 = 251
    /// How many ACL data packets the controller buffers (LE Read Buffer Size).
    public static let aclPacketCount: UInt8 = 8

    var eventMask: UInt64 = 0x0000_1FFF_FFFF_FFFF
    var leEventMask: UInt64 = 0x1F
    var randomAddress: BDAddress?
    var activeScan = false
    /// LE Set Scan Parameters' filter policy: 0x00 every advertiser, 0x01 only those on the filter accept list.
    var scanFilterPolicy: UInt8 = 0
    /// The LE Filter Accept List, in the order the host added its entries.
    var acceptList: [DeviceID] = []
    /// How many entries the filter accept list holds (LE Read Filter Accept List Size).
    public static let acceptListSize: UInt8 = 16
    var scanning = false
    var pending: (device: DeviceID, request: ConnectionRequest, ownAddressType: UInt8)?
    /// The bonds the world's peripherals keep with this controller's host: they outlive links and Reset.
    var bonds: [DeviceID: Bond] = [:]
    /// Where the peripherals' random values (Srand, LTK, EDIV, Rand) come from: seeded, so a run is repeatable.
    var random: SplitMix64
    var cancelling = false
    /// The reason the radio gave for a link that went down before its coming up was handled (the two
    /// reports race on the way to the controller): the host hears the link come up, then go down.
    var droppedWhileConnecting: UInt8?
    var connections: [UInt16: Connection] = [:]
    var nextHandle: UInt16 = 0x0040
    /// The Read RSSI commands the radio has still to answer, in order (the link may end before it does).
    var rssiRequests: [(handle: UInt16, device: DeviceID)] = []
    /// The host's suggested data length for new links (LE Write Suggested Default Data Length).
    var suggestedTxOctets: UInt16 = 27
    var suggestedTxTime: UInt16 = 328
    /// The PHYs the host prefers for new links, as Set Default PHY's bit fields (LE 1M only by default).
    var defaultPHYs: UInt8 = 0x01

    /// A controller with a public address, reset.
    ///
    /// - Parameters:
    ///   - address: its public address (Read BD_ADDR).
    ///   - seed: the seed of the peripherals' pairing randoms.
    public init(address: BDAddress, seed: UInt64 = 0) {
        self.address = address
        random = SplitMix64(seed: seed)
    }

    /// The handles of the connections up, in order.
    public var connectionHandles: [UInt16] { connections.keys.sorted() }

    /// Handles one input.
    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .host(.command(let command)): return handle(command)
        case .host(.acl(let packet)): return handle(packet)
        case .host(.event): return [.note("the host sent an event; hosts send commands and ACL data, ignored")]
        case .advertisement(let device, let data, let response, let connectable, let level):
            return advertised(device, data, response, connectable, level)
        case .connected(let device): return connected(device)
        case .connectionFailed(let device, let status): return connectionFailed(device, status)
        case .disconnected(let device, let reason): return disconnected(device, reason)
        case .att(let device, let pdu): return fromPeripheral(device, pdu)
        case .linkRSSI(let device, let level): return measured(device, level)
        }
    }

    func handle(of device: DeviceID) -> UInt16? {
        connections.first { $0.value.device == device }?.key
    }

    /// Whether the host left `code` on in Set Event Mask (bit `code - 1`).
    func enabled(event code: UInt8) -> Bool { eventMask >> UInt64(code - 1) & 1 == 1 }

    /// Whether the host left LE Meta subevent `code` on in LE Set Event Mask.
    func enabled(leEvent code: UInt8) -> Bool {
        enabled(event: HCIEvent.leMetaCode) && leEventMask >> UInt64(code - 1) & 1 == 1
    }

    static func send(_ event: HCIEvent) -> Action { .send(.event(event)) }
}
