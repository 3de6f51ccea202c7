import AirlinkCore

extension ATTPDU: CustomStringConvertible {
    /// One line for traces: the opcode's name, then its parameters (Vol 3, Part F, 3.4.8 names).
    ///
    /// `ATT_READ_REQ handle=0x0003`, `ATT_READ_RSP 20 bytes`,
    /// `ATT_ERROR_RSP READ_REQ 0x0003 Read Not Permitted (0x02)`.
    public var description: String {
        var writer = TraceLineWriter(bytes: [])
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Writes ``description`` into a trace line; the PDUs of reads, writes and notifications
    /// without a single intermediate string.
    func write(to writer: inout TraceLineWriter) {
        opcode.writeName(to: &writer)
        switch self {
        case .errorResponse(let request, let handle, let error):
            writer.write(" \(request.shortName) \(handle) \(error)")
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu):
            writer.write(" mtu=")
            writer.write(decimal: Int(mtu))
        case .findInformationRequest(let start, let end):
            writer.write(" \(start)-\(end)")
        case .findInformationResponse(let entries):
            writer.write(" " + entries.map { "\($0.handle)=\($0.type)" }.joined(separator: " "))
        case .findByTypeValueRequest(let start, let end, let type, let value):
            writer.write(" \(start)-\(end) type=\(BluetoothUUID(type)) value=\(hexString(value))")
        case .findByTypeValueResponse(let ranges):
            writer.write(" " + ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: " "))
        case .readByTypeRequest(let start, let end, let type), .readByGroupTypeRequest(let start, let end, let type):
            writer.write(" \(start)-\(end) type=\(type)")
        case .readByTypeResponse(let entries):
            writer.write(" " + entries.map { "\($0.handle)=\(hexString($0.value))" }.joined(separator: " "))
        case .readByGroupTypeResponse(let entries):
            writer.write(
                " " + entries.map { "\($0.handle)-\($0.endGroupHandle)=\(hexString($0.value))" }.joined(separator: " "))
        case .readRequest(let handle):
            writer.write(" handle=")
            writer.write(hex4: handle.rawValue)
        case .readResponse(let value), .readBlobResponse(let value):
            writer.write(ascii: " ")
            writer.write(decimal: value.count)
            writer.write(" bytes")
        case .readBlobRequest(let handle, let offset):
            writer.write(" handle=")
            writer.write(hex4: handle.rawValue)
            writer.write(" offset=")
            writer.write(decimal: Int(offset))
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value),
            .handleValueNotification(let handle, let value), .handleValueIndication(let handle, let value):
            writer.write(" handle=")
            writer.write(hex4: handle.rawValue)
            writer.write(ascii: " ")
            writer.write(decimal: value.count)
            writer.write(" bytes")
        case .prepareWriteRequest(let handle, let offset, let value),
            .prepareWriteResponse(let handle, let offset, let value):
            writer.write(" handle=")
            writer.write(hex4: handle.rawValue)
            writer.write(" offset=")
            writer.write(decimal: Int(offset))
            writer.write(ascii: " ")
            writer.write(decimal: value.count)
            writer.write(" bytes")
        case .executeWriteRequest(let commit):
            writer.write(commit ? " write" : " cancel")
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            break
        }
    }
}

extension ATTOpcode {
    /// Writes ``description`` into a trace line: `ATT_READ_REQ`, or `ATT 0x3F` for an unnamed opcode.
    func writeName(to writer: inout TraceLineWriter) {
        if let name = Self.names[rawValue] {
            writer.write("ATT_")
            writer.write(name)
        } else {
            writer.write("ATT ")
            writer.write(shortName)
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
