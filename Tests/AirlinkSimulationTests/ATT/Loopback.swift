import AirlinkCore
import AirlinkSimulation

/// A client procedure and an ``ATTServer`` joined by bytes: every request is encoded, handed to the server
/// as bytes, and every PDU the server sends is encoded and decoded again on the client side.
struct Loopback {
    var server: ATTServer
    /// Every PDU that crossed, `>` client to server, `<` server to client.
    private(set) var trace: [String] = []
    /// What the server reported besides PDUs.
    private(set) var events: [ATTServer.Action] = []
    /// Notifications and indications the client received.
    private(set) var received: [ATTPDU] = []

    init(_ server: ATTServer) { self.server = server }

    /// Sends one PDU to the server and returns its response, if any.
    mutating func send(_ request: ATTPDU) throws(AirlinkError) -> ATTPDU? {
        trace.append("> \(request)")
        var response: ATTPDU?
        for action in server.handle(request.encoded) {
            guard case .send(let pdu) = action else {
                events.append(action)
                continue
            }
            let decoded = try ATTPDU(decoding: pdu.encoded)
            trace.append("< \(decoded)")
            switch decoded.opcode {
            case .handleValueNotification, .handleValueIndication: received.append(decoded)
            default: response = decoded
            }
        }
        return response
    }

    /// Runs a procedure to its end.
    mutating func run<P: GATTProcedure>(_ procedure: P) throws(AirlinkError) -> P.Success {
        var procedure = procedure
        var step = procedure.start()
        while true {
            switch step {
            case .completed(let success): return success
            case .failed(let error): throw error
            case .send(let request):
                guard let response = try send(request) else {
                    throw AirlinkError(.internalError, "server did not answer \(request)")
                }
                step = procedure.handle(response)
            }
        }
    }
}
