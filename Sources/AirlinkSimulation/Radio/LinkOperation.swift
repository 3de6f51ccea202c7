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
    // @unchecked: used under the world's lock only, which debug builds assert where an operation's own members
    // touch its state (``assertConfined(_:file:line:)``, once the operation is queued) and where a link's do.
    // `@exclusivity(unchecked)` on the fields every request touches: as on ``Link``.
    #if DEBUG
        /// The lock of the world whose link queued it (``Link/enqueue(_:)``): debug builds only.
        final var confiningLock: RadioLock?
    #endif
    /// Whether the completion already ran (finished, failed, or abandoned by its caller).
    @exclusivity(unchecked) var isFinished = false
    /// When it was queued on the link: its 30 s run from here.
    @exclusivity(unchecked) var issuedAt = VirtualInstant.start
    /// When the link started it (its first request went out).
    @exclusivity(unchecked) var startedAt: VirtualInstant?
    /// Whether a timer watches its deadline (its first request's transaction timeout does not).
    @exclusivity(unchecked) var deadlineArmed = false
    /// The handles it relies on (refused, or failed, after Service Changed for them: Link+ServiceChanged.swift).
    @exclusivity(unchecked) var scope = LinkHandleScope.none
    /// Whether it completed with a result (not failed).
    @exclusivity(unchecked) var succeeded = false

    /// Starts the operation.
    func start() -> LinkOperationStep { .finished }

    /// Consumes a response.
    func handle(_ response: ATTPDU) -> LinkOperationStep { .finished }

    /// Fails the operation (link lost, timeout, cancellation) if it has not finished.
    func fail(_ error: AirlinkError) {}

    /// In debug builds, stops the process if the operation is queued and the calling thread does not hold
    /// its world's lock (``RadioLock/assertHeld(_:file:line:)``); in release builds, does nothing.
    @inline(__always)
    final func assertConfined(_ member: StaticString = #function, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            confiningLock?.assertHeld("\(Self.self).\(member)", file: file, line: line)
        #endif
    }
}

/// A ``GATTProcedure`` run as a link operation.
///
/// Its result goes to a completion closure (procedures the radio runs itself) or to the one task that
/// waits for it (``wait(lock:)``, an app's request): the operation is its own one-shot, so a request
/// allocates the operation and nothing else to wait on it (a separate `OneShot` cost an allocation
/// and a lock per request, Docs/Performance.md).
///
/// The link calls ``start()`` and ``handle(_:)`` through ``LinkOperation``; overrides of a generic
/// class run unspecialized, looking up the generic metadata of their steps and results on every call.
/// Reads and writes, the hot operations, are non-generic subclasses (``ReadOperation``,
/// ``WriteOperation``) whose overrides call the same steps specialized.
class ProcedureOperation<Procedure: GATTProcedure>: LinkOperation, @unchecked Sendable {
    typealias Outcome = Result<Procedure.Success, AirlinkError>
    @exclusivity(unchecked) private var procedure: Procedure
    private let completion: ((Outcome) -> Void)?
    /// The task waiting for the result, once it waits (under the world's lock).
    @exclusivity(unchecked) private var waiter: UnsafeContinuation<Outcome, Never>?
    /// The result, kept when it came before the task waited (under the world's lock).
    @exclusivity(unchecked) private var kept: Outcome?

    init(_ procedure: Procedure, completion: @escaping (Outcome) -> Void) {
        self.procedure = procedure
        self.completion = completion
    }

    /// An operation whose result one task takes with ``wait(lock:)``.
    init(_ procedure: Procedure) {
        self.procedure = procedure
        self.completion = nil
    }

    /// Waits for the result (once; an operation made without a completion). `lock` is the world's:
    /// the result is delivered under it.
    nonisolated(nonsending) final func wait(lock: RadioLock) async -> Outcome {
        await withUnsafeContinuation { continuation in
            let ready = lock.withLock { () -> Outcome? in
                guard let kept else {
                    waiter = continuation
                    return nil
                }
                self.kept = nil
                return kept
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    override func start() -> LinkOperationStep { startProcedure() }

    override func handle(_ response: ATTPDU) -> LinkOperationStep { handleResponse(response) }

    override func fail(_ error: AirlinkError) { finish(.failure(error)) }

    /// Starts the procedure (what ``start()`` does; specialized where the subclass is concrete).
    @inline(__always)
    final func startProcedure() -> LinkOperationStep {
        assertConfined()
        return translate(procedure.start())
    }

    /// Hands the procedure a response (what ``handle(_:)`` does; specialized where the subclass is concrete).
    @inline(__always)
    final func handleResponse(_ response: ATTPDU) -> LinkOperationStep {
        assertConfined()
        return translate(procedure.handle(response))
    }

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

    private func finish(_ result: Outcome) {
        assertConfined()
        guard !isFinished else { return }
        isFinished = true
        if case .success = result { succeeded = true }
        if let completion {
            completion(result)
        } else if let waiter {
            self.waiter = nil
            waiter.resume(returning: result)
        } else {
            kept = result
        }
    }
}

/// A read (Read Request, then Read Blob Requests) whose steps run without generic metadata lookups.
final class ReadOperation: ProcedureOperation<ReadLongValueProcedure>, @unchecked Sendable {
    override func start() -> LinkOperationStep { startProcedure() }
    override func handle(_ response: ATTPDU) -> LinkOperationStep { handleResponse(response) }
}

/// A Write Request whose steps run without generic metadata lookups.
final class WriteOperation: ProcedureOperation<WriteRequestProcedure>, @unchecked Sendable {
    override func start() -> LinkOperationStep { startProcedure() }
    override func handle(_ response: ATTPDU) -> LinkOperationStep { handleResponse(response) }
}
