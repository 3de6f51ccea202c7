import AirlinkCore

/// Write Characteristic Value: one Write Request, answered by a Write Response
/// (Core Spec Vol 3, Part G, 4.9.3).
struct WriteRequestProcedure: GATTProcedure {
    let handle: ATTHandle
    let value: [UInt8]

    mutating func start() -> GATTProcedureStep<Void> { .send(.writeRequest(handle: handle, value: value)) }

    mutating func handle(_ response: ATTPDU) -> GATTProcedureStep<Void> {
        switch response {
        case .writeResponse: return .completed(())
        case .errorResponse(let request, let handle, let error):
            return .failed(.refused("write \(self.handle)", request, handle, error))
        default: return .failed(.unexpected("write \(handle)", response, expected: .writeResponse))
        }
    }
}
