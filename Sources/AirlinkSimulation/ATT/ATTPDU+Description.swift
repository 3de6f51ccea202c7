import AirlinkCore

extension ATTPDU: CustomStringConvertible {
    /// One line for traces: the opcode's name, then its parameters (Vol 3, Part F, 3.4.8 names).
    ///
    /// `ATT_READ_REQ handle=0x0003`, `ATT_READ_RSP 20 bytes`,
    /// `ATT_ERROR_RSP READ_REQ 0x0003 Read Not Permitted (0x02)`.
    public var description: String {
        let name = opcode.description
        switch self {
        case .errorResponse(let request, let handle, let error):
            return "\(name) \(request.shortName) \(handle) \(error)"
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu):
            return "\(name) mtu=\(mtu)"
        case .findInformationRequest(let start, let end):
            return "\(name) \(start)-\(end)"
        case .findInformationResponse(let entries):
            return "\(name) " + entries.map { "\($0.handle)=\($0.type)" }.joined(separator: " ")
        case .findByTypeValueRequest(let start, let end, let type, let value):
            return "\(name) \(start)-\(end) type=\(BluetoothUUID(type)) value=\(hexString(value))"
        case .findByTypeValueResponse(let ranges):
            return "\(name) " + ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: " ")
        case .readByTypeRequest(let start, let end, let type), .readByGroupTypeRequest(let start, let end, let type):
            return "\(name) \(start)-\(end) type=\(type)"
        case .readByTypeResponse(let entries):
            return "\(name) " + entries.map { "\($0.handle)=\(hexString($0.value))" }.joined(separator: " ")
        case .readByGroupTypeResponse(let entries):
            return "\(name) "
                + entries.map { "\($0.handle)-\($0.endGroupHandle)=\(hexString($0.value))" }.joined(separator: " ")
        case .readRequest(let handle):
            return "\(name) handle=\(handle)"
        case .readResponse(let value), .readBlobResponse(let value):
            return "\(name) \(value.count) bytes"
        case .readBlobRequest(let handle, let offset):
            return "\(name) handle=\(handle) offset=\(offset)"
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value),
            .handleValueNotification(let handle, let value), .handleValueIndication(let handle, let value):
            return "\(name) handle=\(handle) \(value.count) bytes"
        case .prepareWriteRequest(let handle, let offset, let value),
            .prepareWriteResponse(let handle, let offset, let value):
            return "\(name) handle=\(handle) offset=\(offset) \(value.count) bytes"
        case .executeWriteRequest(let commit):
            return "\(name) \(commit ? "write" : "cancel")"
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            return name
        }
    }
}

/// `0A1B2C`, uppercase, or `empty`.
func hexString(_ bytes: [UInt8]) -> String {
    if bytes.isEmpty { return "empty" }
    return bytes.map { byte in
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }.joined()
}
