import AirlinkCore

extension ATTPDU {
    /// The PDU's bytes on air, opcode first, multi-byte fields little-endian (Vol 3, Part F, 3.3).
    ///
    /// Entries of a response are written as given: callers keep their values one length and their
    /// types one size, as ``ATTServer`` does.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedCapacity)
        bytes.append(opcode.rawValue)
        switch self {
        case .errorResponse(let request, let handle, let error):
            bytes.append(request.rawValue)
            bytes.append(handle)
            bytes.append(error.rawValue)
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu):
            bytes.append(uint16: mtu)
        case .findInformationRequest(let start, let end):
            bytes.append(start)
            bytes.append(end)
        case .findInformationResponse(let entries):
            let isShort = entries.allSatisfy { $0.type.uint16 != nil }
            bytes.append(isShort ? 0x01 : 0x02)
            for entry in entries {
                bytes.append(entry.handle)
                bytes += entry.type.littleEndianBytes(count: isShort ? 2 : 16)
            }
        case .findByTypeValueRequest(let start, let end, let type, let value):
            bytes.append(start)
            bytes.append(end)
            bytes.append(uint16: type)
            bytes += value
        case .findByTypeValueResponse(let ranges):
            for range in ranges {
                bytes.append(range.lowerBound)
                bytes.append(range.upperBound)
            }
        case .readByTypeRequest(let start, let end, let type), .readByGroupTypeRequest(let start, let end, let type):
            bytes.append(start)
            bytes.append(end)
            bytes += type.attBytes
        case .readByTypeResponse(let entries):
            bytes.append(UInt8(truncatingIfNeeded: 2 + (entries.first?.value.count ?? 0)))
            for entry in entries {
                bytes.append(entry.handle)
                bytes += entry.value
            }
        case .readByGroupTypeResponse(let entries):
            bytes.append(UInt8(truncatingIfNeeded: 4 + (entries.first?.value.count ?? 0)))
            for entry in entries {
                bytes.append(entry.handle)
                bytes.append(entry.endGroupHandle)
                bytes += entry.value
            }
        case .readRequest(let handle):
            bytes.append(handle)
        case .readResponse(let value), .readBlobResponse(let value):
            bytes += value
        case .readBlobRequest(let handle, let offset):
            bytes.append(handle)
            bytes.append(uint16: offset)
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value),
            .handleValueNotification(let handle, let value), .handleValueIndication(let handle, let value):
            bytes.append(handle)
            bytes += value
        case .prepareWriteRequest(let handle, let offset, let value),
            .prepareWriteResponse(let handle, let offset, let value):
            bytes.append(handle)
            bytes.append(uint16: offset)
            bytes += value
        case .executeWriteRequest(let commit):
            bytes.append(commit ? 0x01 : 0x00)
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            break
        }
        return bytes
    }
}

extension ATTPDU {
    /// The length of ``encoded`` for the PDUs whose bytes decode back to the same PDU by construction
    /// (fixed fields and at most one value running to the end: requests and responses of reads and
    /// writes, notifications, errors, the MTU exchange); `nil` for the lists of discovery, whose
    /// encoding assumes entries of one length.
    ///
    /// A link carries such a PDU as it is, without encoding or decoding it (the bytes are the same
    /// either way; the trace encodes them when it keeps them).
    var exactEncodedCount: Int? {
        switch self {
        case .readResponse(let value), .readBlobResponse(let value): 1 + value.count
        case .writeRequest(_, let value), .writeCommand(_, let value), .handleValueNotification(_, let value),
            .handleValueIndication(_, let value):
            3 + value.count
        case .readRequest, .exchangeMTURequest, .exchangeMTUResponse: 3
        case .readBlobRequest, .errorResponse: 5
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation: 1
        default: nil
        }
    }

    /// Room for the encoded bytes, so that encoding allocates once: exact for the PDUs that carry a
    /// value, the default MTU for the others (lists grow past it when they must).
    private var encodedCapacity: Int {
        switch self {
        case .readResponse(let value), .readBlobResponse(let value): 1 + value.count
        case .writeRequest(_, let value), .writeCommand(_, let value), .handleValueNotification(_, let value),
            .handleValueIndication(_, let value):
            3 + value.count
        case .prepareWriteRequest(_, _, let value), .prepareWriteResponse(_, _, let value): 5 + value.count
        case .findByTypeValueRequest(_, _, _, let value): 7 + value.count
        default: Int(ATTServer.defaultMTU)
        }
    }
}

extension [UInt8] {
    /// Appends a 16-bit value, least significant byte first.
    mutating func append(uint16 value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    /// Appends a handle, least significant byte first.
    mutating func append(_ handle: ATTHandle) { append(uint16: handle.rawValue) }
}

extension BluetoothUUID {
    /// The UUID as ATT carries it: 2 bytes for a 16-bit UUID, otherwise all 16 (Vol 3, Part F, 3.2.1).
    ///
    /// ATT has no 32-bit form; a 32-bit UUID travels as 128 bits.
    var attBytes: [UInt8] { littleEndianBytes(count: uint16 != nil ? 2 : 16) }
}
