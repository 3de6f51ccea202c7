import AirlinkCore

/// Exchange MTU: agrees on the connection's ATT_MTU, the smaller of both receive MTUs
/// (Core Spec Vol 3, Part G, 4.3.1; Vol 3, Part F, 3.4.2).
///
/// A server that answers Request Not Supported keeps the default of 23 bytes.
public struct ExchangeMTUProcedure: GATTProcedure {
    /// The client's receive MTU, 23–517.
    public let clientMTU: UInt16

    /// Creates the procedure.
    ///
    /// - Parameter clientMTU: the receive MTU to announce, clamped to 23–517.
    public init(clientMTU: UInt16 = ATTServer.maximumMTU) {
        self.clientMTU = min(max(clientMTU, ATTServer.defaultMTU), ATTServer.maximumMTU)
    }

    /// Sends ATT_EXCHANGE_MTU_REQ.
    public mutating func start() -> GATTProcedureStep<UInt16> { .send(.exchangeMTURequest(clientMTU: clientMTU)) }

    /// Completes with the effective ATT_MTU.
    public mutating func handle(_ response: ATTPDU) -> GATTProcedureStep<UInt16> {
        switch response {
        case .exchangeMTUResponse(let serverMTU):
            return .completed(max(ATTServer.defaultMTU, min(clientMTU, serverMTU)))
        case .errorResponse(_, _, .requestNotSupported):
            return .completed(ATTServer.defaultMTU)
        case .errorResponse(let request, let handle, let error):
            return .failed(.refused("exchange MTU", request, handle, error))
        default:
            return .failed(.unexpected("exchange MTU", response, expected: .exchangeMTUResponse))
        }
    }
}
