import AirlinkCore

extension ATTServer {
    /// Robust caching's gate before a PDU is handled (Core Spec Vol 3, Part G, 2.5.2.1): `nil` lets the PDU
    /// through; otherwise the actions that answer it instead.
    ///
    /// Only a client that enabled robust caching (Client Supported Features bit 0) and is change-unaware is held.
    /// Its commands are ignored; its requests are refused with Database Out Of Sync (0x12), once, after which the
    /// next request makes it change-aware and is served. A Read By Type Request for the Database Hash (0x2B2A) is
    /// served at once, the exception the specification makes, and makes the next request pass too. A Handle Value
    /// Confirmation is no request and passes (confirming Service Changed makes the client change-aware). The MTU
    /// exchange passes as well: it negotiates the bearer and reads nothing of the database, and Zephyr's server,
    /// whose robust caching follows the same section, does not hold it either.
    mutating func robustCachingGate(_ pdu: ATTPDU) -> [Action]? {
        guard clientState.hasRobustCaching, !clientState.isChangeAware else { return nil }
        let opcode = pdu.opcode
        if opcode == .handleValueConfirmation || opcode == .exchangeMTURequest { return nil }
        if opcode.isCommand { return [] }
        if case .readByTypeRequest(_, _, .databaseHash) = pdu {
            clientState.readDatabaseHash = true
            return nil
        }
        if clientState.readDatabaseHash || clientState.sentOutOfSync {
            clientState.becameChangeAware()
            return nil
        }
        clientState.sentOutOfSync = true
        return errorResponse(opcode, pdu.handleInError, .databaseOutOfSync)
    }

    /// Whether the client may get notifications and indications of `handle` now: a change-unaware client with
    /// robust caching gets none but Service Changed until it becomes change-aware (Vol 3, Part G, 2.5.2.1).
    func mayUpdateClient(about handle: ATTHandle) -> Bool {
        clientState.isChangeAware || !clientState.hasRobustCaching || handle == database.serviceChangedHandle
    }

    /// The value of the Client Supported Features characteristic as this client reads it.
    var clientSupportedFeaturesValue: [UInt8] { [clientState.supportedFeatures] }

    /// A write to Client Supported Features (Vol 3, Part G, 7.2): one byte; a client may set bits but never clear
    /// one it set (Value Not Allowed, 0x13). Bits the server does not know are not kept. Writing it makes the
    /// client change-aware, as Zephyr's server does: it writes them after discovering the database.
    mutating func writeClientSupportedFeatures(_ value: [UInt8]) -> Result<[Action], WriteFailure> {
        guard value.count == 1 else { return .failure(WriteFailure(error: .invalidAttributeValueLength)) }
        let old = clientState.supportedFeatures
        guard old & ~value[0] == 0 else { return .failure(WriteFailure(error: .valueNotAllowed)) }
        clientState.supportedFeatures = old | (value[0] & ATTClientCachingState.knownFeatures)
        clientState.becameChangeAware()
        return .success([])
    }

    /// Takes over what a bonded client left at its last connection: its CCCD values and caching state.
    ///
    /// - Parameters:
    ///   - state: the client's caching state.
    ///   - clientConfigurations: its CCCD values by CCCD handle; those that are no CCCD of this database are
    ///     dropped.
    public mutating func restoreClient(
        _ state: ATTClientCachingState, clientConfigurations: [ATTHandle: UInt16]
    ) {
        clientState = state
        cccdValues = clientConfigurations.filter {
            if case .cccd = database[$0.key]?.role { return true }
            return false
        }
    }

    /// The CCCD values the client wrote, by CCCD handle (a bonded client's to keep).
    public var clientConfigurations: [ATTHandle: UInt16] { cccdValues }

    /// Indicates, on Service Changed, a change the client has not confirmed, if it enabled the indication: what a
    /// server does when a bonded client comes back after its database changed (Vol 3, Part G, 7.1).
    public mutating func indicateUnconfirmedServiceChange() -> [Action] {
        guard let range = clientState.unconfirmedServiceChange, let handle = database.serviceChangedHandle,
            clientConfiguration(forValue: handle) & 0x0002 != 0
        else { return [] }
        return enqueueServiceChanged(range, handle)
    }

    /// Queues the Service Changed indication of `range` (start and end handle, Vol 3, Part G, 7.1).
    mutating func enqueueServiceChanged(_ range: ClosedRange<ATTHandle>, _ handle: ATTHandle) -> [Action] {
        var value: [UInt8] = []
        value.append(range.lowerBound)
        value.append(range.upperBound)
        return enqueueIndication(PendingIndication(handle: handle, value: value))
    }
}

extension ATTPDU {
    /// The handle an Error Response to this request names: the one it reads or writes, the start of the range it
    /// searches, 0x0000 for the others (Core Spec Vol 3, Part F, 3.4.1.1).
    var handleInError: ATTHandle {
        switch self {
        case .readRequest(let handle), .readBlobRequest(let handle, _), .writeRequest(let handle, _),
            .writeCommand(let handle, _), .prepareWriteRequest(let handle, _, _):
            handle
        case .findInformationRequest(let start, _), .findByTypeValueRequest(let start, _, _, _),
            .readByTypeRequest(let start, _, _), .readByGroupTypeRequest(let start, _, _):
            start
        default:
            ATTHandle(0)
        }
    }
}
