import AirlinkCore
import Synchronization

/// One device's pairing, for its ``GATTClient``: the policy, the pairing under way (callers that ask while one
/// runs share its result rather than fail), its deadline, the events and the bond in the registry.
final class LinkSecurity: Sendable {
    private struct State {
        var policy = PairingPolicy.manual
        var running: (id: Int, task: Task<Result<PairingResult, AirlinkError>, Never>)?
        var nextID = 0
        var observer: (@Sendable (ConnectionEvent) -> Void)?
        /// Whether the stack holds a bond with the device, as far as this side has seen (`nil`: not known).
        var bonded: Bool?
    }

    /// How long the layers wait for a pairing: SMP's 30 s (Core Spec Vol 3, Part H, 3.4) and a margin for the
    /// stack to report it; a transport that answers later is abandoned.
    static let timeout: Duration = .seconds(40)

    let device: DeviceID
    let transport: any Transport
    let environment: AirlinkEnvironment
    let bus: EventBus
    let recorder: ConnectionRecorder?
    private let state = Mutex(State())

    init(
        device: DeviceID, transport: any Transport, environment: AirlinkEnvironment, bus: EventBus,
        recorder: ConnectionRecorder?
    ) {
        self.device = device
        self.transport = transport
        self.environment = environment
        self.bus = bus
        self.recorder = recorder
    }

    var policy: PairingPolicy {
        get { state.withLock { $0.policy } }
        set { state.withLock { $0.policy = newValue } }
    }

    /// Sends the connection's events to its own stream too (``ConnectionManager/events()``).
    func observe(_ observer: @escaping @Sendable (ConnectionEvent) -> Void) {
        state.withLock { $0.observer = observer }
    }

    /// Pairs, or joins the pairing under way; reports the outcome and keeps or drops the bond in the registry.
    func pair(features: PairingFeatures, agent: PairingAgent) async throws(AirlinkError) -> PairingResult {
        let task = state.withLock { state -> Task<Result<PairingResult, AirlinkError>, Never> in
            if let running = state.running { return running.task }
            state.nextID += 1
            let id = state.nextID
            let task = environment.spawn { () async -> Result<PairingResult, AirlinkError> in
                let result = await self.run(features: features, agent: agent)
                self.state.withLock { state in if state.running?.id == id { state.running = nil } }
                return result
            }
            state.running = (id, task)
            return task
        }
        return try await task.value.get()
    }

    private func run(features: PairingFeatures, agent: PairingAgent) async -> Result<PairingResult, AirlinkError> {
        let (transport, device) = (self.transport, self.device)
        let checked = CheckedPairingAgent(agent)
        do throws(AirlinkError) {
            var result = try await OperationDeadline(environment: environment, issued: environment.clock.now).run(
                "pair with \(device)", timeout: Self.timeout,
                reason:
                    "its allowance (SMP's 30 s, Core Spec Vol 3, Part H, 3.4, and a margin for the stack); "
                    + "it was abandoned"
            ) { () async throws(AirlinkError) -> PairingResult in
                try await transport.pair(device, features: features, agent: checked.agent)
            }
            result = await withBondsSecurity(result)
            if result.bonded, result.method != nil { recorder?.bondRecorded(device, result) }
            state.withLock { $0.bonded = result.bonded }
            emit(.paired(result))
            return .success(result)
        } catch let failure {
            let error = checked.explain(failure)
            switch error.code {
            case .bondLost:
                // The peer forgot: this side forgets too, so that the next pairing pairs afresh; the layers
                // do not pair again by themselves (a peer that lost its keys may not be the same device).
                await transport.forgetBond(device)
                recorder?.bondForgotten(device)
                state.withLock { $0.bonded = false }
                emit(.bondLost)
            case .notConnected, .linkLost, .adapterPoweredOff, .cancelled:
                break  // the connection's own events say what happened to the link
            default:
                emit(.pairingFailed(error))
            }
            return .failure(error)
        }
    }

    /// A link encrypted with the bond has the security the pairing that made the bond gave: the registry's level and
    /// key size, when it keeps the bond. A stack that does not know the level, as BlueZ on D-Bus, reports the
    /// lowest (2, encrypted); a higher one is the stack's own word and stands.
    private func withBondsSecurity(_ result: PairingResult) async -> PairingResult {
        guard result.method == nil, result.level == .encrypted, let bond = await recorder?.bond(of: device) else {
            return result
        }
        return PairingResult(method: nil, level: bond.level, keySize: bond.keySize, bonded: result.bonded)
    }

    /// The stack's bond appeared or went away outside this side's ``pair(features:agent:)``
    /// (``/AirlinkCore/TransportEvent/bondChanged(_:bonded:)``). A bond that went away is
    /// ``/AirlinkCore/ConnectionEvent/bondLost`` and leaves the registry; a new one is
    /// ``/AirlinkCore/ConnectionEvent/paired(_:)`` (the stack does not say how: Just Works, encrypted, 16-byte key) and
    /// is kept there. Nothing is reported while a pairing runs (its result says it) nor when the bond was already known
    /// to be so.
    func bondChanged(bonded: Bool) {
        let news = state.withLock { state -> Bool in
            guard state.running == nil, state.bonded != bonded else { return false }
            state.bonded = bonded
            return true
        }
        guard news else { return }
        if bonded {
            let result = PairingResult(method: .justWorks, level: .encrypted, keySize: 16, bonded: true)
            recorder?.bondRecorded(device, result)
            emit(.paired(result))
        } else {
            recorder?.bondForgotten(device)
            emit(.bondLost)
        }
    }

    /// The device sent a Security Request. With ``PairingPolicy/pairsWhenRefused`` the layers pair with the
    /// policy's features and agent (the transport encrypts with the bond when there is one, and a pairing under
    /// way is joined, not repeated), its outcome reported as for any pairing; otherwise the app hears
    /// ``/AirlinkCore/ConnectionEvent/securityRequested(_:)`` and nothing else happens.
    func securityRequested(_ request: SecurityRequest) {
        let policy = self.policy
        guard policy.pairsWhenRefused else { return emit(.securityRequested(request)) }
        // try?: run() reports every outcome as an event (paired, pairingFailed, bondLost, or the link's own)
        _ = environment.spawn { _ = try? await self.pair(features: policy.features, agent: policy.agent) }
    }

    private func emit(_ event: ConnectionEvent) {
        state.withLock { $0.observer }?(event)
        bus.publish(.connection(device, event))
    }
}
