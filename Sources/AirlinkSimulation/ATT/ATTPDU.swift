import AirlinkCore

/// An ATT protocol data unit, as the virtual radio carries it on both ends of a link
/// (Core Spec Vol 3, Part F, 3.4).
///
/// ``encoded`` gives the bytes on air; ``init(decoding:)`` parses them and names the offset of the first
/// bad byte. ``description`` is one line for traces: `ATT_READ_REQ handle=0x0003`.
public enum ATTPDU: Hashable, Sendable {
    /// ATT_ERROR_RSP: the request with `request` opcode failed on `handle` with `error` (3.4.1.1).
    case errorResponse(request: ATTOpcode, handle: ATTHandle, error: ATTError)
    /// ATT_EXCHANGE_MTU_REQ: the client's receive MTU (3.4.2.1).
    case exchangeMTURequest(clientMTU: UInt16)
    /// ATT_EXCHANGE_MTU_RSP: the server's receive MTU (3.4.2.2).
    case exchangeMTUResponse(serverMTU: UInt16)
    /// ATT_FIND_INFORMATION_REQ: the types of the attributes in a handle range (3.4.3.1).
    case findInformationRequest(start: ATTHandle, end: ATTHandle)
    /// ATT_FIND_INFORMATION_RSP: handles and types, all 16-bit or all 128-bit (3.4.3.2).
    case findInformationResponse([InformationEntry])
    /// ATT_FIND_BY_TYPE_VALUE_REQ: attributes of a 16-bit type with a given value (3.4.3.3).
    case findByTypeValueRequest(start: ATTHandle, end: ATTHandle, type: UInt16, value: [UInt8])
    /// ATT_FIND_BY_TYPE_VALUE_RSP: found handles with their group end handles (3.4.3.4).
    case findByTypeValueResponse([ClosedRange<ATTHandle>])
    /// ATT_READ_BY_TYPE_REQ: the values of the attributes of a type in a handle range (3.4.4.1).
    case readByTypeRequest(start: ATTHandle, end: ATTHandle, type: BluetoothUUID)
    /// ATT_READ_BY_TYPE_RSP: handle–value pairs, all values of one length (3.4.4.2).
    case readByTypeResponse([AttributeData])
    /// ATT_READ_REQ (3.4.4.3).
    case readRequest(handle: ATTHandle)
    /// ATT_READ_RSP: the value, at most ATT_MTU − 1 bytes (3.4.4.4).
    case readResponse([UInt8])
    /// ATT_READ_BLOB_REQ: part of a long value from `offset` (3.4.4.5).
    case readBlobRequest(handle: ATTHandle, offset: UInt16)
    /// ATT_READ_BLOB_RSP: the part, at most ATT_MTU − 1 bytes (3.4.4.6).
    case readBlobResponse([UInt8])
    /// ATT_READ_BY_GROUP_TYPE_REQ: grouping attributes of a type in a handle range (3.4.4.9).
    case readByGroupTypeRequest(start: ATTHandle, end: ATTHandle, type: BluetoothUUID)
    /// ATT_READ_BY_GROUP_TYPE_RSP: groups with their end handles and values, all of one length (3.4.4.10).
    case readByGroupTypeResponse([GroupData])
    /// ATT_WRITE_REQ (3.4.5.1).
    case writeRequest(handle: ATTHandle, value: [UInt8])
    /// ATT_WRITE_RSP (3.4.5.2).
    case writeResponse
    /// ATT_WRITE_CMD: a write without response (3.4.5.3).
    case writeCommand(handle: ATTHandle, value: [UInt8])
    /// ATT_PREPARE_WRITE_REQ: queue part of a value at `offset` (3.4.6.1).
    case prepareWriteRequest(handle: ATTHandle, offset: UInt16, value: [UInt8])
    /// ATT_PREPARE_WRITE_RSP: the queued part, echoed (3.4.6.2).
    case prepareWriteResponse(handle: ATTHandle, offset: UInt16, value: [UInt8])
    /// ATT_EXECUTE_WRITE_REQ: flags 0x01 write the queue (`commit`), 0x00 cancel it (3.4.6.3).
    case executeWriteRequest(commit: Bool)
    /// ATT_EXECUTE_WRITE_RSP (3.4.6.4).
    case executeWriteResponse
    /// ATT_HANDLE_VALUE_NTF: an unacknowledged value update (3.4.7.1).
    case handleValueNotification(handle: ATTHandle, value: [UInt8])
    /// ATT_HANDLE_VALUE_IND: a value update the client confirms (3.4.7.2).
    case handleValueIndication(handle: ATTHandle, value: [UInt8])
    /// ATT_HANDLE_VALUE_CFM (3.4.7.3).
    case handleValueConfirmation

    /// One entry of a Find Information Response: a handle and its attribute type (3.4.3.2).
    public struct InformationEntry: Hashable, Sendable {
        /// The attribute's handle.
        public var handle: ATTHandle
        /// The attribute's type.
        public var type: BluetoothUUID

        /// Creates an entry.
        public init(handle: ATTHandle, type: BluetoothUUID) {
            self.handle = handle
            self.type = type
        }
    }

    /// One entry of a Read By Type Response: a handle and its (possibly truncated) value (3.4.4.2).
    public struct AttributeData: Hashable, Sendable {
        /// The attribute's handle.
        public var handle: ATTHandle
        /// The attribute's value.
        public var value: [UInt8]

        /// Creates an entry.
        public init(handle: ATTHandle, value: [UInt8]) {
            self.handle = handle
            self.value = value
        }
    }

    /// One entry of a Read By Group Type Response: a group's handle range and value (3.4.4.10).
    public struct GroupData: Hashable, Sendable {
        /// The grouping attribute's handle.
        public var handle: ATTHandle
        /// The handle of the group's last attribute.
        public var endGroupHandle: ATTHandle
        /// The grouping attribute's value, for a service its UUID.
        public var value: [UInt8]

        /// Creates an entry.
        public init(handle: ATTHandle, endGroupHandle: ATTHandle, value: [UInt8]) {
            self.handle = handle
            self.endGroupHandle = endGroupHandle
            self.value = value
        }
    }

    /// The PDU's opcode (Vol 3, Part F, 3.4.8).
    public var opcode: ATTOpcode {
        switch self {
        case .errorResponse: .errorResponse
        case .exchangeMTURequest: .exchangeMTURequest
        case .exchangeMTUResponse: .exchangeMTUResponse
        case .findInformationRequest: .findInformationRequest
        case .findInformationResponse: .findInformationResponse
        case .findByTypeValueRequest: .findByTypeValueRequest
        case .findByTypeValueResponse: .findByTypeValueResponse
        case .readByTypeRequest: .readByTypeRequest
        case .readByTypeResponse: .readByTypeResponse
        case .readRequest: .readRequest
        case .readResponse: .readResponse
        case .readBlobRequest: .readBlobRequest
        case .readBlobResponse: .readBlobResponse
        case .readByGroupTypeRequest: .readByGroupTypeRequest
        case .readByGroupTypeResponse: .readByGroupTypeResponse
        case .writeRequest: .writeRequest
        case .writeResponse: .writeResponse
        case .writeCommand: .writeCommand
        case .prepareWriteRequest: .prepareWriteRequest
        case .prepareWriteResponse: .prepareWriteResponse
        case .executeWriteRequest: .executeWriteRequest
        case .executeWriteResponse: .executeWriteResponse
        case .handleValueNotification: .handleValueNotification
        case .handleValueIndication: .handleValueIndication
        case .handleValueConfirmation: .handleValueConfirmation
        }
    }
}
