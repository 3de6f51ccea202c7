import AirlinkCore

extension VirtualRadio {
    /// Pairs with a connected peripheral, or encrypts the link again with the bond from an earlier pairing
    /// (Core Spec Vol 3, Part H): the method comes from both sides' features as the specification's tables
    /// choose it, and the link's security level and key size from the method; when both sides bond, both keep
    /// the keys, and ``pair(_:features:agent:)`` on a later connection encrypts with them without pairing.
    ///
    /// Each SMP exchange takes a connection interval, the peripheral's user takes the time its spec says, and
    /// `smp` lines in the trace show each step. What the cryptography would compute is not simulated: a passkey
    /// typed wrong fails the confirm check, as it does on air.
    ///
    /// - Parameters:
    ///   - device: a connected peripheral.
    ///   - features: what the central's Pairing Request offers: its IO capabilities, MITM, bonding, key size.
    ///   - agent: the central's user, asked for passkeys and confirmations when pairing starts.
    /// - Returns: the method, the security level, the key size and whether both sides bonded.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/pairingFailed`` with the Pairing Failed reason
    ///   (``/AirlinkCore/AirlinkError/pairingFailureReason``) a side sent; ``/AirlinkCore/AirlinkError/Code/bondLost``
    ///   when the central has a bond the peripheral no longer has (HCI PIN or Key Missing, 0x06: forget the bond
    ///   with ``forgetBond(_:)`` and pair again); ``/AirlinkCore/AirlinkError/Code/timeout`` after SMP's 30 s
    ///   without an answer (no more pairing on that link until it reconnects);
    ///   ``/AirlinkCore/AirlinkError/Code/operationInProgress`` while a pairing on the link runs;
    ///   ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a key size outside 7–16;
    ///   ``/AirlinkCore/AirlinkError/Code/notConnected``, ``/AirlinkCore/AirlinkError/Code/linkLost``,
    ///   ``/AirlinkCore/AirlinkError/Code/cancelled``.
    public func pair(
        _ device: DeviceID, features: PairingFeatures = PairingFeatures(io: .keyboardDisplay),
        agent: PairingAgent = .attentive
    ) async throws(AirlinkError) -> PairingResult {
        guard AttributePermissions.keySizes.contains(features.maximumKeySize) else {
            throw AirlinkError(
                .invalidArgument, "a maximum key size is 7 to 16 bytes, not \(features.maximumKeySize)")
        }
        let lock = world.lock
        let (pairing, situation) = try lock.withLock { () throws(AirlinkError) -> (PairingProcess, Situation) in
            let link = try usableLink(device, "pair with \(device)")
            if link.pairing != nil {
                throw AirlinkError(.operationInProgress, "a pairing with \(device) is under way; wait for it")
            }
            if link.smpTimedOut {
                throw AirlinkError(
                    .timeout, "pairing with \(device) timed out on this link; disconnect and connect again to pair")
            }
            let process = PairingProcess(link: link)
            link.pairing = process
            let draws = (0..<2).map { _ in UInt32(world.random.next() % 1_000_000) }
            let situation = Situation(
                bond: bonds[device], peripheralHasKey: link.peripheral.bond(with: address) != nil,
                security: link.peripheral.security, appAgent: link.peripheral.appAgent,
                interval: link.interval.duration, draws: draws)
            return (process, situation)
        }
        // The agent is the user's code: it answers outside the lock.
        let plan = situation.plan(features: features, agent: agent)
        lock.withLock { start(pairing, plan) }
        let result = await pairing.result.wait(lock: lock) {
            pairing.finish(.failure(AirlinkError(.cancelled, "pairing with \(device) was cancelled")))
        }
        return try result.get()
    }

    /// Whether the central keeps a bond with `device` (from a pairing in which both sides bonded).
    public func isBonded(with device: DeviceID) -> Bool { world.lock.withLock { bonds[device] != nil } }

    /// Forgets the bond with `device`, as a user removing the device from a phone's settings; the peripheral
    /// keeps its own. The next ``pair(_:features:agent:)`` pairs afresh.
    public func forgetBond(_ device: DeviceID) {
        world.lock.withLock {
            guard bonds.removeValue(forKey: device) != nil else { return }
            world.record(.pairing(adapter: adapterIndex, device: device, step: .centralForgetsBond))
        }
    }

    /// What a pairing starts from, gathered under the lock.
    private struct Situation {
        var bond: PairingResult?
        var peripheralHasKey: Bool
        var security: PeripheralSecurity
        var appAgent: PairingAgent?
        var interval: Duration
        /// Two six-digit numbers from the seeded source: passkeys or a comparison value.
        var draws: [UInt32]

        func plan(features: PairingFeatures, agent: PairingAgent) -> PairingPlan {
            if let bond {
                return .reencryption(bond: bond, peripheralHasKey: peripheralHasKey, interval: interval)
            }
            var next = draws.makeIterator()
            return .pairing(
                central: features, agent: agent, peripheral: security, appAgent: appAgent, interval: interval,
                draw: { next.next() ?? 0 })
        }
    }

    /// Schedules the plan's trace lines, its end and SMP's timeout.
    private func start(_ pairing: PairingProcess, _ plan: PairingPlan) {
        let link = pairing.link
        let started = world.now
        let (adapter, device) = (adapterIndex, link.peripheral.id)
        for step in plan.steps where step.at < PairingPlan.timeout {
            world.schedule(at: started + VirtualDuration(step.at)) { [world] in
                guard !pairing.isFinished else { return }
                world.record(.pairing(adapter: adapter, device: device, step: step.step))
            }
        }
        let central = link.central.address
        if let method = plan.method {
            world.schedule(at: started + VirtualDuration(plan.methodChosen)) {
                guard !pairing.isFinished else { return }
                link.peripheral.host?.emit(.pairingRequested(central, method: method))
            }
        }
        if plan.outcome != .noAnswer && plan.end < PairingPlan.timeout {
            world.schedule(at: started + VirtualDuration(plan.end)) { [self] in
                guard !pairing.isFinished else { return }
                pairing.finish(outcome(plan.outcome, on: link))
                switch plan.outcome {
                case .paired(let result): link.peripheral.host?.emit(.paired(central, result))
                case .failed(let reason, _): link.peripheral.host?.emit(.pairingFailed(central, reason: reason))
                case .keyMissing, .noAnswer: break
                }
            }
        }
        world.schedule(at: started + VirtualDuration(PairingPlan.timeout)) { [world] in
            guard !pairing.isFinished else { return }
            world.record(.pairing(adapter: adapter, device: device, step: .timedOut))
            link.smpTimedOut = true
            link.peripheral.host?.emit(.pairingFailed(central, reason: nil))
            pairing.finish(
                .failure(
                    AirlinkError(
                        .timeout,
                        "pairing with \(link.peripheral.id) got no answer within SMP's 30 s; "
                            + "the peripheral's user may not have answered")))
        }
    }

    /// Applies a plan's end to the link and both sides' bonds.
    private func outcome(_ outcome: PairingPlan.Outcome, on link: Link) -> Result<PairingResult, AirlinkError> {
        let device = link.peripheral.id
        switch outcome {
        case .paired(let result):
            link.server.securityLevel = result.level
            link.server.encryptionKeySize = result.keySize
            if result.bonded && result.method != nil {
                bonds[device] = result
                link.peripheral.remember(bond: result, with: address)
            }
            return .success(result)
        case .failed(let reason, let byCentral):
            let side = byCentral ? "the central" : device.description
            return .failure(
                AirlinkError(
                    .pairingFailed, "pairing with \(device) failed: \(side) sent Pairing Failed, \(reason)",
                    cause: .smp(reason)))
        case .keyMissing:
            return .failure(
                AirlinkError(
                    .bondLost,
                    "\(device) no longer has the bond (PIN or Key Missing, 0x06): forget the bond and pair again",
                    cause: .other("HCI PIN or Key Missing (0x06)")))
        case .noAnswer:
            return .failure(AirlinkError(.internalError, "a pairing without an answer ended before its timeout"))
        }
    }
}

/// One pairing under way on a link: its result, delivered once, by the plan's end, SMP's timeout, the link's
/// loss or a cancellation.
final class PairingProcess: @unchecked Sendable {
    // @unchecked: `isFinished` is used under `world.lock`.
    let link: Link
    let result = OneShot<PairingResult>()
    private(set) var isFinished = false

    init(link: Link) { self.link = link }

    /// Delivers the result (later ones are ignored) and frees the link for another pairing.
    func finish(_ outcome: Result<PairingResult, AirlinkError>) {
        guard !isFinished else { return }
        isFinished = true
        if link.pairing === self { link.pairing = nil }
        _ = result.resume(outcome)
    }
}

extension VirtualRadio {
    /// Sends the peripheral's Security Request (SMP 0x0B), if its spec has one, one connection interval after
    /// the link's setup, unless the link went down or a pairing started meanwhile. Called under the lock.
    func requestSecurity(on link: Link) {
        guard let request = link.peripheral.security.request else { return }
        let device = link.peripheral.id
        world.schedule(at: world.now + link.interval) { [self] in
            guard !link.isClosed, link.pairing == nil else { return }
            world.record(.pairing(adapter: adapterIndex, device: device, step: .securityRequest(request)))
            emit(.securityRequested(device, request))
        }
    }
}
