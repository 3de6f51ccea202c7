import AirlinkCore
import DequeModule

/// The server end of ATT for one connection, as a synchronous state machine (Core Spec Vol 3, Part F, 3.4;
/// Vol 3, Part G, 4).
///
/// Feed it what the client sends with ``handle(_:)-([UInt8])``; it answers from its ``database`` and returns
/// ``Action``s: PDUs to send, writes the owner should act on, subscription and MTU changes. The owner also
/// tells it the link's ``securityLevel`` and pushes value updates through ``notify(_:for:)`` and
/// ``indicate(_:for:)``. Client Characteristic Configuration values are kept per connection, here.
public struct ATTServer: Sendable {
    /// The ATT_MTU every LE link starts with, 23 bytes (Vol 3, Part F, 3.2.8).
    public static let defaultMTU: UInt16 = 23
    /// The largest ATT_MTU Airlink accepts, 517 bytes (a 512-byte value plus a Read Blob header).
    public static let maximumMTU: UInt16 = 517
    /// How many Prepare Write Requests the server queues before answering Prepare Queue Full.
    public static let prepareQueueCapacity = 64

    /// Supplies a characteristic value at read time instead of the stored one.
    public typealias ValueProvider = @Sendable (ATTHandle) -> [UInt8]

    /// What the owner must do after the server handled an event.
    public enum Action: Hashable, Sendable {
        /// Send this PDU to the client.
        case send(ATTPDU)
        /// The client wrote `value` to `handle` (Write Request, Write Command or Execute Write); the stored
        /// value has already changed. CCCD writes are reported as
        /// ``subscriptionChanged(valueHandle:notify:indicate:)``.
        case valueWritten(handle: ATTHandle, value: [UInt8])
        /// The client changed the CCCD of the characteristic whose value is at `valueHandle`.
        case subscriptionChanged(valueHandle: ATTHandle, notify: Bool, indicate: Bool)
        /// The MTU exchange settled on a new effective ATT_MTU.
        case mtuChanged(UInt16)
        /// The client confirmed the indication of `handle` (Vol 3, Part F, 3.4.7.3).
        case indicationConfirmed(handle: ATTHandle)
    }

    /// The attribute table this connection sees.
    public internal(set) var database: AttributeDatabase
    /// The receive MTU this server announces in an MTU exchange, 23–517.
    public let preferredMTU: UInt16
    /// The effective ATT_MTU: the smaller of both ends' receive MTUs once exchanged, 23 before.
    public internal(set) var mtu: UInt16 = ATTServer.defaultMTU
    /// The link's security, which decides Insufficient Encryption and Insufficient Authentication.
    public var securityLevel: LinkSecurityLevel = .none
    /// The link's encryption key size in bytes (7–16), compared with an attribute's minimum key size while the
    /// link is encrypted.
    public var encryptionKeySize = 16
    /// Whether the application authorized this client, for attributes that require authorization.
    public var isAuthorized = false
    /// The client's Client Supported Features and change-aware state (Vol 3, Part G, 2.5.2.1); a bonded
    /// client's comes back with ``restoreClient(_:clientConfigurations:)``.
    public internal(set) var clientState = ATTClientCachingState()

    var cccdValues: [ATTHandle: UInt16] = [:]
    var prepareQueue: [PreparedWrite] = []
    var indicationInFlight: ATTHandle?
    var pendingIndications: Deque<PendingIndication> = []
    var valueProviders: [ATTHandle: ValueProvider] = [:]

    struct PreparedWrite: Sendable {
        var handle: ATTHandle
        var offset: Int
        var value: [UInt8]
    }

    struct PendingIndication: Sendable {
        var handle: ATTHandle
        var value: [UInt8]
    }

    /// Creates a server for one connection.
    ///
    /// - Parameters:
    ///   - database: the attribute table.
    ///   - preferredMTU: the receive MTU to announce, clamped to 23–517.
    public init(database: AttributeDatabase, preferredMTU: UInt16 = ATTServer.maximumMTU) {
        self.database = database
        self.preferredMTU = min(max(preferredMTU, Self.defaultMTU), Self.maximumMTU)
    }

    /// Answers reads of the value at `handle` with `provider` rather than the stored value; `nil` removes it.
    public mutating func setValueProvider(_ provider: ValueProvider?, for handle: ATTHandle) {
        valueProviders[handle] = provider
    }

    /// The CCCD value the client wrote for the characteristic whose value is at `valueHandle`: bit 0 notify,
    /// bit 1 indicate (Vol 3, Part G, 3.3.3.3); 0 if never written or if there is no CCCD.
    public func clientConfiguration(forValue valueHandle: ATTHandle) -> UInt16 {
        guard let cccd = database.cccdHandle(forValue: valueHandle) else { return 0 }
        return cccdValues[cccd] ?? 0
    }

    /// Handles the bytes of one PDU from the client.
    ///
    /// An unknown request is answered with Request Not Supported, a malformed one with Invalid PDU
    /// (Vol 3, Part F, 3.4.1.1); unknown or malformed commands are ignored, as are PDUs only a server sends.
    /// A request longer than the ATT_MTU is malformed too (no PDU may exceed it, Vol 3, Part F, 3.2.8):
    /// answering it as if it were valid would make a response over the MTU (a Prepare Write Response
    /// echoes its value).
    public mutating func handle(_ bytes: [UInt8]) -> [Action] {
        guard let first = bytes.first else { return [] }
        let opcode = ATTOpcode(rawValue: first)
        guard opcode.isSupported else {
            return opcode.isCommand ? [] : errorResponse(opcode, ATTHandle(0), .requestNotSupported)
        }
        guard bytes.count <= Int(mtu) else {
            return opcode.isCommand ? [] : errorResponse(opcode, ATTHandle(0), .invalidPDU)
        }
        do {
            return handle(try ATTPDU(decoding: bytes))
        } catch {
            return opcode.isCommand ? [] : errorResponse(opcode, ATTHandle(0), .invalidPDU)
        }
    }

    /// Handles one decoded PDU from the client.
    ///
    /// A change-unaware client that enabled robust caching is held first: its commands are ignored and a request
    /// answered Database Out Of Sync (Vol 3, Part G, 2.5.2.1; Docs/GATTCaching.md).
    public mutating func handle(_ pdu: ATTPDU) -> [Action] {
        if let held = robustCachingGate(pdu) { return held }
        switch pdu {
        case .exchangeMTURequest(let clientMTU):
            let effective = max(Self.defaultMTU, min(clientMTU, preferredMTU))
            let changed = effective != mtu
            mtu = effective
            return [.send(.exchangeMTUResponse(serverMTU: preferredMTU))] + (changed ? [.mtuChanged(effective)] : [])
        case .findInformationRequest(let start, let end):
            return findInformation(start, end)
        case .findByTypeValueRequest(let start, let end, let type, let value):
            return findByTypeValue(start, end, type, value)
        case .readByTypeRequest(let start, let end, let type):
            return readByType(start, end, type)
        case .readByGroupTypeRequest(let start, let end, let type):
            return readByGroupType(start, end, type)
        case .readRequest(let handle):
            return read(handle)
        case .readBlobRequest(let handle, let offset):
            return readBlob(handle, offset: Int(offset))
        case .writeRequest(let handle, let value):
            return write(handle, value, respond: true)
        case .writeCommand(let handle, let value):
            return write(handle, value, respond: false)
        case .prepareWriteRequest(let handle, let offset, let value):
            return prepareWrite(handle, offset: offset, value: value)
        case .executeWriteRequest(let commit):
            return executeWrite(commit: commit)
        case .handleValueConfirmation:
            return confirmIndication()
        default:
            return []
        }
    }

    func errorResponse(_ request: ATTOpcode, _ handle: ATTHandle, _ error: ATTError) -> [Action] {
        [.send(.errorResponse(request: request, handle: handle, error: error))]
    }

    /// Invalid Handle for a range that starts at 0x0000 or ends before it starts (Vol 3, Part F, 3.4.3.1).
    func rangeError(_ request: ATTOpcode, _ start: ATTHandle, _ end: ATTHandle) -> [Action]? {
        start.rawValue == 0 || start > end ? errorResponse(request, start, .invalidHandle) : nil
    }
}
