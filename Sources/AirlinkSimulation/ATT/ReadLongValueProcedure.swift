import AirlinkCore

/// Reads a value of any length: a Read Request, then Read Blob Requests while each part fills a response
/// (ATT_MTU − 1 bytes), until a shorter part or Attribute Not Long (Core Spec Vol 3, Part G, 4.8.1 and 4.8.3).
public struct ReadLongValueProcedure: GATTProcedure {
    /// The attribute read with a Read Request, then Read Blob Requests from offset MTU − 1.
    public let handle: ATTHandle
    /// The connection's ATT_MTU.
    public let mtu: UInt16
    private var value: [UInt8] = []

    /// Creates the procedure.
    ///
    /// - Parameters:
    ///   - handle: the value's handle.
    ///   - mtu: the effective ATT_MTU of the connection.
    public init(handle: ATTHandle, mtu: UInt16 = ATTServer.defaultMTU) {
        self.handle = handle
        self.mtu = max(mtu, ATTServer.defaultMTU)
    }

    private var name: String { "read \(handle)" }

    /// Sends the Read Request.
    public mutating func start() -> GATTProcedureStep<[UInt8]> {
        value = []
        return .send(.readRequest(handle: handle))
    }

    /// Appends each part and asks for the next while parts come full.
    public mutating func handle(_ response: ATTPDU) -> GATTProcedureStep<[UInt8]> {
        switch response {
        case .readResponse(let part) where value.isEmpty, .readBlobResponse(let part):
            if value.isEmpty { value = part } else { value += part }  // one part: shared, not copied
            guard part.count >= Int(mtu) - 1, value.count < Int(UInt16.max) else { return .completed(value) }
            return .send(.readBlobRequest(handle: handle, offset: UInt16(value.count)))
        case .errorResponse(.readBlobRequest, _, .attributeNotLong):
            return .completed(value)
        case .errorResponse(let request, let handle, let error):
            return .failed(.refused(name, request, handle, error))
        default:
            return .failed(.unexpected(name, response, expected: value.isEmpty ? .readResponse : .readBlobResponse))
        }
    }
}
