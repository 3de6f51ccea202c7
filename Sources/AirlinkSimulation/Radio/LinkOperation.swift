import AirlinkCore

/// What a link operation wants after it started or consumed a response.
enum LinkOperationStep {
    /// Send this request and wait for its response.
    case send(ATTPDU)
    /// The operation is over (its completion has run).
    case finished
}

/// A GATT client procedure queued on a link, with its completion; one runs at a time per link
/// (one outstanding ATT request, Core Spec Vol 3, Part F, 3.3.2).
class LinkOperation: @unchecked Sendable {
    // @unchecked: used under the world's lock only.
    // `@exclusivity(unchecked)` on the fields every request touches: as on ``Link``.
    /// Whether the completion already ran (finished, failed, or abandoned by its caller).
    @exclusivity(unchecked) var isFinished = false
    /// When it was queued on the link: its 30 s run from here.
    @exclusivity(unchecked) var issuedAt = VirtualInstant.start
    /// When the link started it (its first request went out).
    @exclusivity(unchecked) var startedAt: VirtualInstant?
    /// Whether a timer watches its deadline (its first request's transaction timeout does not).
    @exclusivity(unchecked) var deadlineArmed = false

    /// Starts the operation.
    func start() -> LinkOperationStep { .finished }

    /// Consumes a response.
    func handle(_ response: ATTPDU) -> LinkOperationStep { .finished }

    /// Fails the operation (link lost, timeout, cancellation) if it has not finished.
    func fail(_ error: AirlinkError) {}
}

/// A ``GATTProcedure`` run as a link operation.
final class ProcedureOperation<Procedure: GATTProcedure>: LinkOperation, @unchecked Sendable {
    @exclusivity(unchecked) private var procedure: Procedure
    private let completion: ((Result<Procedure.Success, AirlinkError>) -> Void)?
    private let pending: OneShot<Procedure.Success>?

    init(_ procedure: Procedure, completion: @escaping (Result<Procedure.Success, AirlinkError>) -> Void) {
        self.procedure = procedure
        self.completion = completion
        self.pending = nil
    }

    /// An operation whose result goes to `pending` (no completion closure to allocate).
    init(_ procedure: Procedure, delivering pending: OneShot<Procedure.Success>) {
        self.procedure = procedure
        self.completion = nil
        self.pending = pending
    }

    // Overrides of a generic class run unspecialized (the link calls them through `LinkOperation`),
    // looking up generic metadata at run time; reads and writes, the hot procedures, get
    // specialized bodies that the generic entry points branch to.
    @_specialize(exported:false,where Procedure == ReadLongValueProcedure)
    @_specialize(exported:false,where Procedure == WriteRequestProcedure)
    override func start() -> LinkOperationStep { translate(procedure.start()) }

    @_specialize(exported:false,where Procedure == ReadLongValueProcedure)
    @_specialize(exported:false,where Procedure == WriteRequestProcedure)
    override func handle(_ response: ATTPDU) -> LinkOperationStep { translate(procedure.handle(response)) }

    override func fail(_ error: AirlinkError) { finish(.failure(error)) }

    private func translate(_ step: GATTProcedureStep<Procedure.Success>) -> LinkOperationStep {
        switch step {
        case .send(let pdu): return .send(pdu)
        case .completed(let value):
            finish(.success(value))
            return .finished
        case .failed(let error):
            finish(.failure(error))
            return .finished
        }
    }

    private func finish(_ result: Result<Procedure.Success, AirlinkError>) {
        guard !isFinished else { return }
        isFinished = true
        if let pending { pending.resume(result) } else { completion?(result) }
    }
}
