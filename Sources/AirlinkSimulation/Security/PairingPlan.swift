import AirlinkCore

/// What a pairing on one link will do, decided when it starts: the trace lines each side's Security Manager
/// writes and when, and how it ends (Core Spec Vol 3, Part H, 2.3 and 3).
///
/// A synchronous decision with no radio: the features of both sides, the peripheral's user, the central's
/// agent and two random numbers go in; the steps come out. It models what each side decides and learns,
/// not the cryptography: a passkey entered wrong fails the confirm check as it would on air.
struct PairingPlan: Equatable {
    /// A step of the trace, `at` after the pairing started.
    struct Step: Equatable {
        var at: Duration
        var step: PairingStep
    }

    /// How the plan ends.
    enum Outcome: Equatable {
        /// The link is encrypted.
        case paired(PairingResult)
        /// A side sent Pairing Failed (`byCentral` when the central did).
        case failed(PairingFailureReason, byCentral: Bool)
        /// The peripheral has no key for the central's bond: HCI PIN or Key Missing (0x06).
        case keyMissing
        /// Nobody answers: SMP's timeout ends it.
        case noAnswer
    }

    /// SMP's transaction timeout (Vol 3, Part H, 3.4).
    static let timeout = Duration.seconds(30)

    var steps: [Step] = []
    var outcome: Outcome = .noAnswer
    /// When ``outcome`` happens (ignored for ``Outcome/noAnswer``).
    var end: Duration = .zero
    /// The method chosen when the peripheral answered the request (`nil`: it refused, or a re-encryption).
    var method: PairingMethod?
    /// When ``method`` was chosen: the Pairing Response.
    var methodChosen: Duration = .zero

    /// The plan of a pairing between a central offering `central` and a peripheral answering as `peripheral`.
    ///
    /// - Parameters:
    ///   - appAgent: the peripheral's user when the peripheral is an app's role: it answers at once, in place
    ///     of `peripheral.user`.
    ///   - interval: the connection interval: each SMP exchange takes one.
    ///   - draw: a random six-digit number (a passkey or a comparison value).
    static func pairing(
        central: PairingFeatures, agent: PairingAgent, peripheral: PeripheralSecurity, appAgent: PairingAgent? = nil,
        interval: Duration, draw: () -> UInt32
    ) -> PairingPlan {
        var plan = PairingPlan()
        plan.add(.zero, .request(central))
        if let refusal = peripheral.refusal { return plan.failing(refusal, byCentral: false, at: interval) }
        let features = peripheral.features
        plan.add(interval, .response(features))
        let method = PairingMethod.chosen(central: central, peripheral: features)
        plan.add(interval, .method(method))
        (plan.method, plan.methodChosen) = (method, interval)
        if !method.isAuthenticated && (central.mitm || features.mitm) {
            return plan.failing(.authenticationRequirements, byCentral: !features.mitm, at: interval)
        }
        guard
            let userDone = plan.authenticate(
                method, agent: agent, user: peripheral, app: appAgent, from: interval,
                interval: interval, draw: draw)
        else { return plan }
        let secureConnections = central.secureConnections && features.secureConnections
        let keySize = min(central.maximumKeySize, features.maximumKeySize)
        let level: LinkSecurityLevel =
            !method.isAuthenticated
            ? .encrypted : secureConnections && keySize == 16 ? .authenticatedSecureConnections : .authenticated
        // Public keys, confirm, random and DHKey check (Secure Connections) or confirm and random (legacy), then
        // the link layer's encryption start; bonding adds the key distribution.
        let encrypted = userDone + interval * (secureConnections ? 5 : 3)
        plan.add(encrypted, .encrypted(level, keySize: keySize))
        let bonded = central.bonding && features.bonding
        plan.end = bonded ? encrypted + interval : encrypted
        if bonded { plan.add(plan.end, .bonded) }
        plan.outcome = .paired(PairingResult(method: method, level: level, keySize: keySize, bonded: bonded))
        return plan
    }

    /// The plan of encrypting a link again with the central's bond: the peripheral finds its key, or answers
    /// the key request negatively (PIN or Key Missing).
    static func reencryption(bond: PairingResult, peripheralHasKey: Bool, interval: Duration) -> PairingPlan {
        var plan = PairingPlan()
        plan.add(.zero, .reencryptionRequest)
        plan.end = interval
        if peripheralHasKey {
            plan.add(interval, .reencrypted(bond.level, keySize: bond.keySize))
            plan.outcome = .paired(PairingResult(method: nil, level: bond.level, keySize: bond.keySize, bonded: true))
        } else {
            plan.add(interval, .keyMissing)
            plan.outcome = .keyMissing
        }
        return plan
    }

    /// The users' part of `method`, starting `from`; returns when both are done, or `nil` when the plan ended.
    private mutating func authenticate(
        _ method: PairingMethod, agent: PairingAgent, user: PeripheralSecurity, app: PairingAgent?,
        from start: Duration, interval: Duration, draw: () -> UInt32
    ) -> Duration? {
        switch method {
        case .justWorks:
            return start
        case .outOfBand:
            add(start, .outOfBandChecked)
            return start
        case .numericComparison:
            let number = draw()
            add(start, .bothDisplay(number))
            guard agent.confirmNumber(number) else {
                failing(.numericComparisonFailed, byCentral: true, at: start)
                return nil
            }
            add(start, .userConfirms(.central))
            guard
                let (_, done) = peripheralUser(
                    user.user, app: app, asked: .confirm(number), at: start, refusing: .numericComparisonFailed)
            else {
                return nil
            }
            add(done, .userConfirms(.peripheral))
            return done
        case .passkeyEntry(let roles):
            var shown: UInt32?
            switch roles {
            case .peripheralDisplays:
                shown = user.passkey ?? draw()
                app?.displayPasskey(shown!)
                add(start, .displaysPasskey(.peripheral, shown!))
            case .centralDisplays:
                shown = draw()
                agent.displayPasskey(shown!)
                add(start, .displaysPasskey(.central, shown!))
            case .bothEnter:
                break
            }
            var centralPasskey = shown
            if roles != .centralDisplays {
                guard let typed = agent.enterPasskey(shown) else {
                    failing(.passkeyEntryFailed, byCentral: true, at: start)
                    return nil
                }
                add(start, .userEnters(.central, typed))
                centralPasskey = typed
            }
            var peripheralPasskey = shown
            var done = start
            if roles != .peripheralDisplays {
                guard
                    let (typed, time) = peripheralUser(
                        user.user, app: app, asked: .enter(shown), at: start, refusing: .passkeyEntryFailed)
                else {
                    return nil
                }
                peripheralPasskey = typed ?? centralPasskey
                add(time, .userEnters(.peripheral, peripheralPasskey ?? 0))
                done = time
            }
            if centralPasskey != peripheralPasskey {
                // The confirm values cross, then the random values that show the peripheral they differ.
                failing(.confirmValueFailed, byCentral: false, at: done + interval * 2)
                return nil
            }
            return done
        }
    }

    /// What the peripheral's user is asked: to confirm a compared number, or to type a passkey (given the one
    /// the central shows, if it shows one).
    private enum Question {
        case confirm(UInt32)
        case enter(UInt32?)
    }

    /// What the peripheral's user does from `start`: the passkey they type (`nil`: the one expected) and when,
    /// or `nil` when they refuse (the plan fails with `refusal`) or never answer. An app's agent answers at
    /// once.
    private mutating func peripheralUser(
        _ user: PeripheralUser, app: PairingAgent?, asked question: Question, at start: Duration,
        refusing refusal: PairingFailureReason
    )
        -> (UInt32?, Duration)?
    {
        if let app {
            switch question {
            case .confirm(let number): if app.confirmNumber(number) { return (nil, start) }
            case .enter(let shown): if let typed = app.enterPasskey(shown) { return (typed, start) }
            }
            failing(refusal, byCentral: false, at: start)
            return nil
        }
        switch user {
        case .attentive(let delay): return (nil, start + delay)
        case .enters(let passkey, let delay): return (passkey, start + delay)
        case .rejects(let delay):
            failing(refusal, byCentral: false, at: start + delay)
            return nil
        case .absent:
            outcome = .noAnswer
            return nil
        }
    }

    private mutating func add(_ at: Duration, _ step: PairingStep) { steps.append(Step(at: at, step: step)) }

    @discardableResult
    private mutating func failing(_ reason: PairingFailureReason, byCentral: Bool, at time: Duration) -> PairingPlan {
        add(time, .failed(reason, byCentral: byCentral))
        outcome = .failed(reason, byCentral: byCentral)
        end = time
        return self
    }
}
