import AirlinkCore

/// A GATT client procedure as a synchronous state machine: it says which request to send next and
/// consumes the server's answers until it ends (Core Spec Vol 3, Part G, 4).
///
/// Call ``start()`` once, send what it returns, and pass every response to ``handle(_:)`` until a step is
/// ``GATTProcedureStep/completed(_:)`` or ``GATTProcedureStep/failed(_:)``. ATT allows one request in
/// flight per connection (Vol 3, Part F, 3.3.2), so procedures on one link run one after another.
public protocol GATTProcedure: Sendable {
    /// What the procedure yields when it succeeds.
    associatedtype Success: Sendable

    /// Begins the procedure: its first request, or its result if no request is needed.
    mutating func start() -> GATTProcedureStep<Success>

    /// Consumes the server's response to the last request.
    mutating func handle(_ response: ATTPDU) -> GATTProcedureStep<Success>
}

/// What a ``GATTProcedure`` wants next.
public enum GATTProcedureStep<Success: Sendable>: Sendable {
    /// Send this request and pass the response back.
    case send(ATTPDU)
    /// The procedure ended with its result.
    case completed(Success)
    /// The procedure ended with an error: ``/AirlinkCore/AirlinkError/Code/attribute`` with cause
    /// `.att(error, handle:)` when the server refused, ``/AirlinkCore/AirlinkError/Code/malformedData`` when it
    /// answered out of turn.
    case failed(AirlinkError)
}

extension GATTProcedureStep: Equatable where Success: Equatable {}

extension AirlinkError {
    /// The server answered a procedure's request with an Error Response.
    static func refused(
        _ procedure: String, _ request: ATTOpcode, _ handle: ATTHandle, _ error: ATTError
    ) -> AirlinkError {
        AirlinkError(
            .attribute, "\(procedure) failed: the server answered \(request.shortName) for \(handle) with \(error)",
            cause: .att(error, handle: handle))
    }

    /// The server answered a procedure's request with a PDU that does not fit it.
    static func unexpected(_ procedure: String, _ response: ATTPDU, expected: ATTOpcode) -> AirlinkError {
        AirlinkError(.malformedData, "\(procedure) expected \(expected) or ATT_ERROR_RSP but got \(response)")
    }
}
