import AirlinkCore

/// Writes a value of any length: Prepare Write Requests of ATT_MTU − 5 bytes each, checked against their
/// echoes, then an Execute Write Request (Core Spec Vol 3, Part G, 4.9.4; Vol 3, Part F, 3.4.6).
///
/// If the server refuses a part or echoes it wrongly, the procedure cancels the queue with an Execute
/// Write Request (flags 0x00) before it fails.
public struct WriteLongValueProcedure: GATTProcedure {
    /// The attribute the Prepare Write Requests target.
    public let handle: ATTHandle
    /// The whole value, sent in parts of MTU − 5 bytes, then executed at once.
    public let value: [UInt8]
    /// The connection's ATT_MTU.
    public let mtu: UInt16
    private var sent: ATTPDU?
    private var offset = 0
    private var failure: AirlinkError?

    /// Creates the procedure.
    ///
    /// - Parameters:
    ///   - handle: the value's handle.
    ///   - value: the bytes to write; the server refuses more than 512 at execution.
    ///   - mtu: the effective ATT_MTU of the connection.
    public init(handle: ATTHandle, value: [UInt8], mtu: UInt16 = ATTServer.defaultMTU) {
        self.handle = handle
        self.value = value
        self.mtu = max(mtu, ATTServer.defaultMTU)
    }

    private var name: String { "write \(handle) (\(value.count) bytes)" }

    /// Sends the first Prepare Write Request.
    public mutating func start() -> GATTProcedureStep<Void> {
        offset = 0
        failure = nil
        sent = nil
        return nextPart()
    }

    private mutating func nextPart() -> GATTProcedureStep<Void> {
        let end = min(value.count, offset + Int(mtu) - 5)
        guard offset < value.count || (offset == 0 && value.isEmpty && sent == nil) else {
            sent = .executeWriteRequest(commit: true)
            return .send(.executeWriteRequest(commit: true))
        }
        guard offset <= Int(UInt16.max) else {
            return .failed(AirlinkError(.invalidArgument, "\(name): offsets stop at 0xFFFF"))
        }
        let part = ATTPDU.prepareWriteRequest(handle: handle, offset: UInt16(offset), value: Array(value[offset..<end]))
        sent = part
        offset = max(end, 1)
        return .send(part)
    }

    private mutating func cancel(because error: AirlinkError) -> GATTProcedureStep<Void> {
        failure = error
        sent = .executeWriteRequest(commit: false)
        return .send(.executeWriteRequest(commit: false))
    }

    /// Checks each echo, sends the next part, then executes.
    public mutating func handle(_ response: ATTPDU) -> GATTProcedureStep<Void> {
        switch (sent, response) {
        case (.prepareWriteRequest(let handle, let offset, let part)?, .prepareWriteResponse(let h, let o, let v)):
            guard h == handle, o == offset, v == part else {
                return cancel(
                    because: AirlinkError(
                        .malformedData, "\(name): the server echoed \(response) for \(sent.map(\.description) ?? "")"))
            }
            return nextPart()
        case (.prepareWriteRequest?, .errorResponse(let request, let handle, let error)):
            return cancel(because: .refused(name, request, handle, error))
        case (.executeWriteRequest?, .executeWriteResponse):
            if let failure { return .failed(failure) }
            return .completed(())
        case (.executeWriteRequest?, .errorResponse(let request, let handle, let error)):
            return .failed(failure ?? .refused(name, request, handle, error))
        default:
            return .failed(
                .unexpected(
                    name, response,
                    expected: sent?.opcode == .prepareWriteRequest ? .prepareWriteResponse : .executeWriteResponse))
        }
    }
}
