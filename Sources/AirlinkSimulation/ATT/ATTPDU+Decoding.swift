import AirlinkCore

extension ATTPDU {
    /// Decodes a PDU from its bytes on air (Vol 3, Part F, 3.3 and 3.4).
    ///
    /// - Parameter bytes: the PDU, opcode first.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` naming the PDU, the offset of the bad byte and what
    ///   is wrong there: an unknown opcode, a missing field, trailing bytes, a bad format or flag.
    public init(decoding bytes: [UInt8]) throws(AirlinkError) {
        guard let first = bytes.first else {
            throw AirlinkError(.malformedData, "ATT PDU is malformed at offset 0: it is empty")
        }
        let opcode = ATTOpcode(rawValue: first)
        guard opcode.isSupported else {
            throw AirlinkError(.malformedData, "ATT PDU is malformed at offset 0: \(opcode) is not supported")
        }
        var reader = ATTByteReader(bytes, opcode: opcode)
        switch opcode {
        case .errorResponse:
            let request = ATTOpcode(rawValue: try reader.uint8("request opcode"))
            let handle = try reader.handle("attribute handle")
            let error = ATTError(try reader.uint8("error code"))
            self = .errorResponse(request: request, handle: handle, error: error)
        case .exchangeMTURequest:
            self = .exchangeMTURequest(clientMTU: try reader.uint16("client rx MTU"))
        case .exchangeMTUResponse:
            self = .exchangeMTUResponse(serverMTU: try reader.uint16("server rx MTU"))
        case .findInformationRequest:
            self = .findInformationRequest(
                start: try reader.handle("starting handle"), end: try reader.handle("ending handle"))
        case .findInformationResponse:
            self = .findInformationResponse(try Self.decodeInformation(&reader))
        case .findByTypeValueRequest:
            self = .findByTypeValueRequest(
                start: try reader.handle("starting handle"), end: try reader.handle("ending handle"),
                type: try reader.uint16("attribute type"), value: reader.rest())
        case .findByTypeValueResponse:
            self = .findByTypeValueResponse(try Self.decodeHandleRanges(&reader))
        case .readByTypeRequest, .readByGroupTypeRequest:
            let start = try reader.handle("starting handle")
            let end = try reader.handle("ending handle")
            let type = try reader.uuidToEnd("attribute type")
            self =
                opcode == .readByTypeRequest
                ? .readByTypeRequest(start: start, end: end, type: type)
                : .readByGroupTypeRequest(start: start, end: end, type: type)
        case .readByTypeResponse:
            self = .readByTypeResponse(try Self.decodeAttributeData(&reader))
        case .readByGroupTypeResponse:
            self = .readByGroupTypeResponse(try Self.decodeGroupData(&reader))
        case .readRequest:
            self = .readRequest(handle: try reader.handle("attribute handle"))
        case .readResponse:
            self = .readResponse(reader.rest())
        case .readBlobRequest:
            self = .readBlobRequest(handle: try reader.handle("attribute handle"), offset: try reader.uint16("offset"))
        case .readBlobResponse:
            self = .readBlobResponse(reader.rest())
        case .writeRequest:
            self = .writeRequest(handle: try reader.handle("attribute handle"), value: reader.rest())
        case .writeResponse:
            self = .writeResponse
        case .writeCommand:
            self = .writeCommand(handle: try reader.handle("attribute handle"), value: reader.rest())
        case .prepareWriteRequest, .prepareWriteResponse:
            let handle = try reader.handle("attribute handle")
            let offset = try reader.uint16("offset")
            let value = reader.rest()
            self =
                opcode == .prepareWriteRequest
                ? .prepareWriteRequest(handle: handle, offset: offset, value: value)
                : .prepareWriteResponse(handle: handle, offset: offset, value: value)
        case .executeWriteRequest:
            let flags = try reader.uint8("flags")
            guard flags <= 0x01 else {
                throw reader.failure("flags must be 0x00 (cancel) or 0x01 (write), not \(flags)", at: 1)
            }
            self = .executeWriteRequest(commit: flags == 0x01)
        case .executeWriteResponse:
            self = .executeWriteResponse
        case .handleValueNotification:
            self = .handleValueNotification(handle: try reader.handle("attribute handle"), value: reader.rest())
        case .handleValueIndication:
            self = .handleValueIndication(handle: try reader.handle("attribute handle"), value: reader.rest())
        default:  // .handleValueConfirmation; isSupported admits no other opcode
            self = .handleValueConfirmation
        }
        try reader.expectEnd()
    }

    private static func decodeInformation(_ reader: inout ATTByteReader) throws(AirlinkError) -> [InformationEntry] {
        let formatOffset = reader.offset
        let format = try reader.uint8("format")
        guard format == 0x01 || format == 0x02 else {
            throw reader.failure(
                "format must be 0x01 (16-bit UUIDs) or 0x02 (128-bit), not \(format)", at: formatOffset)
        }
        let uuidSize = format == 0x01 ? 2 : 16
        var entries: [InformationEntry] = []
        repeat {
            let handle = try reader.handle("handle")
            let entryOffset = reader.offset
            let raw = try reader.bytes(uuidSize, "UUID")
            do {
                entries.append(InformationEntry(handle: handle, type: try BluetoothUUID(littleEndian: raw)))
            } catch {
                throw reader.failure(error.message, at: entryOffset)
            }
        } while reader.remaining > 0
        return entries
    }

    private static func decodeHandleRanges(_ reader: inout ATTByteReader) throws(AirlinkError) -> [ClosedRange<
        ATTHandle
    >] {
        var ranges: [ClosedRange<ATTHandle>] = []
        repeat {
            let start = try reader.handle("found attribute handle")
            let endOffset = reader.offset
            let end = try reader.handle("group end handle")
            guard start <= end else {
                throw reader.failure("group end handle \(end) is below its attribute handle \(start)", at: endOffset)
            }
            ranges.append(start...end)
        } while reader.remaining > 0
        return ranges
    }

    private static func decodeAttributeData(_ reader: inout ATTByteReader) throws(AirlinkError) -> [AttributeData] {
        let length = Int(try reader.uint8("length"))
        guard length >= 2 else { throw reader.failure("length \(length) is below the 2 bytes of a handle", at: 1) }
        var entries: [AttributeData] = []
        repeat {
            let handle = try reader.handle("handle")
            entries.append(AttributeData(handle: handle, value: try reader.bytes(length - 2, "attribute value")))
        } while reader.remaining > 0
        return entries
    }

    private static func decodeGroupData(_ reader: inout ATTByteReader) throws(AirlinkError) -> [GroupData] {
        let length = Int(try reader.uint8("length"))
        guard length >= 4 else { throw reader.failure("length \(length) is below the 4 bytes of two handles", at: 1) }
        var entries: [GroupData] = []
        repeat {
            let handle = try reader.handle("attribute handle")
            let end = try reader.handle("end group handle")
            let value = try reader.bytes(length - 4, "attribute value")
            entries.append(GroupData(handle: handle, endGroupHandle: end, value: value))
        } while reader.remaining > 0
        return entries
    }
}
