import AirlinkCore

/// One device's link as BlueZ shows it, and when Airlink calls it usable: the decisions of
/// `connect`, disconnection and Service Changed, as a synchronous state machine.
///
/// BlueZ's behaviours handled here:
/// - a link is usable only when `Connected`, `ServicesResolved` and the `Connect` reply have all
///   arrived and the GATT objects exist; BlueZ may flip `ServicesResolved` before it has exported
///   the objects, so the machine re-reads the tree (`refreshObjects`) and, if they are still
///   missing, waits a grace period for them;
/// - the `Connect` reply, `Connected` and `ServicesResolved` arrive in any order;
/// - a link BlueZ brings up by itself (a paired device reconnecting) is announced too;
/// - GATT objects appearing or vanishing on a usable link is a Service Changed, announced once the
///   objects settle: BlueZ may re-add them one by one. Settled means `ServicesResolved` true again
///   after it turned false, or else no object changing for a quiet period; a limit bounds the wait.
package struct BlueZLinkStateMachine: Sendable {
    /// What happened.
    package enum Event: Sendable {
        /// The app asked to connect (only when no attempt runs).
        case connectRequested
        /// `Device1.Connect` returned.
        case connectReplied
        /// `Device1.Connect` failed (`AlreadyConnected` is reported as ``connectReplied``).
        case connectFailed(AirlinkError)
        /// `Device1.Connected` changed.
        case connectedChanged(Bool)
        /// `Device1.ServicesResolved` changed.
        case servicesResolvedChanged(Bool)
        /// GATT service objects appeared or vanished under the device; the count now.
        case serviceObjectsChanged(count: Int)
        /// GATT characteristic or descriptor objects appeared or vanished under the device.
        case attributeObjectsChanged
        /// The quiet period armed by ``Action/armSettleQuiet(_:)`` with this token ended.
        case settleQuietEnded(Int)
        /// The limit armed by ``Action/armSettleLimit(_:)`` for this settling ended.
        case settleLimitReached(Int)
        /// A fresh `GetManagedObjects` arrived; the device's service count in it.
        case objectsRefreshed(serviceCount: Int)
        /// The grace period for missing GATT objects ended.
        case graceExpired
        /// The attempt's deadline passed.
        case timedOut(Duration)
        /// The task awaiting `connect` was cancelled.
        case cancelled
        /// The app asked to disconnect.
        case disconnectRequested
        /// BlueZ said why the link dropped (`Device1.Disconnected`, BlueZ 5.67 and later).
        case disconnectReason(DisconnectionReason)
        /// BlueZ removed the device object.
        case deviceRemoved
        /// BlueZ or the bus went away.
        case transportLost(String)
        /// The adapter's `Powered` turned false: bluetoothd says so before the links' `Connected`.
        case adapterPoweredOff(String)
    }

    /// What the transport must do.
    package enum Action: Sendable, Hashable {
        /// Call `Device1.Connect`.
        case callConnect
        /// Re-read the object tree, then report ``/Airlink/Event/objectsRefreshed(serviceCount:)``.
        case refreshObjects
        /// Start the grace timer, then report ``/Airlink/Event/graceExpired``.
        case armGrace
        /// Resume the `connect` caller with success.
        case succeed
        /// Resume the `connect` caller with this error.
        case fail(AirlinkError)
        /// Call `Device1.Disconnect` to cancel BlueZ's attempt.
        case abortAttempt
        /// Emit ``/AirlinkCore/TransportEvent/connected(_:)``.
        case emitConnected
        /// Emit ``/AirlinkCore/TransportEvent/disconnected(_:reason:)``.
        case emitDisconnected(DisconnectionReason)
        /// Emit ``/AirlinkCore/TransportEvent/servicesChanged(_:range:)``.
        case emitServicesChanged
        /// Start the quiet-period timer, then report ``/Airlink/Event/settleQuietEnded(_:)`` with the token.
        case armSettleQuiet(Int)
        /// Start the settling limit's timer, then report ``/Airlink/Event/settleLimitReached(_:)`` with the token.
        case armSettleLimit(Int)
        /// Fail every operation pending on the link with this error.
        case failOperations(AirlinkError)
    }

    private struct Attempt: Sendable {
        var replied = false
        var sawConnected = false
        var refreshing = false
        var refreshed = false
        var graceArmed = false
        var graceDone = false
    }

    /// `Device1.Connected` as last seen.
    package private(set) var connected: Bool
    /// `Device1.ServicesResolved` as last seen.
    package private(set) var resolved: Bool
    /// How many GATT service objects the device has.
    package private(set) var serviceCount: Int
    /// Whether the link is usable and announced.
    package private(set) var isReady = false
    /// Whether a service change was announced and not yet followed by a discovery.
    package private(set) var servicesChangePending = false
    private var attempt: Attempt?
    private var localDisconnect = false
    /// A Service Changed under way on the usable link, not yet announced.
    private var settling: Settling?
    /// Tokens of the settling timers: a timer whose token is not the latest is stale.
    private var settleTokens = 0

    private struct Settling: Sendable {
        var limitToken: Int
        var quietToken: Int?
        /// `ServicesResolved` turned false: settled when it turns true again (or at the limit).
        var awaitingResolved: Bool
        /// Service objects went and none came back yet: bluetoothd removes the services of a changed range when
        /// its discovery of the range starts and exports what it found when that discovery ends, after as many
        /// round trips over the air as the range needs (a second and more at a 30–50 ms interval), far longer
        /// than the quiet period. Settled once objects come back and are quiet (or at the limit, when the change
        /// only removed services).
        var awaitingAdditions = false
    }

    /// Notes, at once and under the transport's lock, that the app asked for the link to end: the
    /// `Connected = false` signal may be handled before the queued ``/Airlink/Event/disconnectRequested``,
    /// and the link must still end for a local reason.
    mutating func noteLocalDisconnect() { localDisconnect = true }
    private var reportedReason: DisconnectionReason?

    /// Creates the machine from the device's current properties. A device BlueZ already holds
    /// connected is not announced until the app connects (`connect` then returns at once).
    package init(connected: Bool, resolved: Bool, serviceCount: Int) {
        self.connected = connected
        self.resolved = resolved
        self.serviceCount = serviceCount
    }

    /// Whether a `connect` attempt is under way.
    package var isConnecting: Bool { attempt != nil }

    /// Clears the pending service change after the app discovered the services again.
    package mutating func servicesDiscovered() { servicesChangePending = false }

    /// Handles an event and returns what to do, in order.
    package mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .connectRequested:
            if isReady { return [.succeed] }
            attempt = Attempt()
            if connected && resolved && serviceCount > 0 {
                attempt?.replied = true
                return evaluate()
            }
            return [.callConnect]
        case .connectReplied:
            attempt?.replied = true
            return evaluate()
        case .connectFailed(let error):
            // Tolerated late: Connect's failure for an attempt that already ended (timed out, cancelled, or failed
            // by the link going down).
            guard attempt != nil else { return [] }
            attempt = nil
            return [.fail(error)]
        case .connectedChanged(let value):
            connected = value
            if value {
                attempt?.sawConnected = true
                return evaluate()
            }
            resolved = false
            return linkDown(
                reason: reportedReason ?? (localDisconnect ? .localHostTerminated : .supervisionTimeout),
                operationsError: AirlinkError(.linkLost, "the link dropped"),
                attemptError: AirlinkError(.connectionFailed, "the link dropped before it was usable; retry"))
        case .servicesResolvedChanged(let value):
            let was = resolved
            resolved = value
            var actions: [Action] = []
            if isReady && !value && was { actions.append(contentsOf: servicesChanging(awaitingResolved: true)) }
            if isReady && value && !was { actions.append(contentsOf: servicesSettled()) }
            return actions + evaluate()
        case .attributeObjectsChanged:
            // Before the link is usable, objects appearing are the connection's own discovery: evaluate() waits for it.
            return isReady ? servicesChanging(awaitingResolved: false) : []
        case .settleQuietEnded(let token):
            // Tolerated late: a quiet timer a newer change superseded (another token), or one that ends while the
            // change still waits for ServicesResolved or for objects to come back (settled by those, or the limit).
            guard let current = settling, current.quietToken == token, !current.awaitingResolved,
                !current.awaitingAdditions
            else { return [] }
            return servicesSettled()
        case .settleLimitReached(let token):
            guard settling?.limitToken == token else { return [] }  // tolerated late: a change that settled already
            return servicesSettled()
        case .serviceObjectsChanged(let count):
            let before = serviceCount
            serviceCount = count
            var actions: [Action] = []
            if isReady {
                actions.append(contentsOf: servicesChanging(awaitingResolved: false))
                if count < before { settling?.awaitingAdditions = true }
                if count > before { settling?.awaitingAdditions = false }
            }
            if var current = attempt, current.graceArmed, count > 0, !current.refreshing {
                current.refreshing = true
                attempt = current
                actions.append(.refreshObjects)
            }
            return actions + evaluate()
        case .objectsRefreshed(let count):
            serviceCount = count
            attempt?.refreshing = false
            attempt?.refreshed = true
            return evaluate()
        case .graceExpired:
            guard var current = attempt, current.graceArmed else { return [] }  // tolerated late: the attempt ended
            current.graceDone = true
            if current.refreshing {
                attempt = current
                return []  // the refresh under way decides, through objectsRefreshed
            }
            current.refreshing = true
            attempt = current
            return [.refreshObjects]
        case .timedOut(let limit):
            guard attempt != nil else { return [] }  // tolerated late: the attempt ended as its deadline fired
            attempt = nil
            return [
                .abortAttempt,
                .fail(
                    AirlinkError(
                        .timeout,
                        "the link was not usable within \(limit) (BlueZ reported Connected \(connected), "
                            + "ServicesResolved "
                            + "\(resolved)); the attempt was cancelled")),
            ]
        case .cancelled:
            guard attempt != nil else { return [] }  // tolerated late: the attempt ended before the cancellation
            attempt = nil
            return [
                .abortAttempt, .fail(AirlinkError(.cancelled, "the connect was cancelled; the attempt was aborted")),
            ]
        case .disconnectRequested:
            localDisconnect = true
            guard attempt != nil else { return [] }  // the link's end is reported when Connected turns false
            attempt = nil
            return [.fail(AirlinkError(.connectionFailed, "disconnect() was called while connecting"))]
        case .disconnectReason(let reason):
            reportedReason = reason
            return []  // kept for the Connected = false that follows
        case .deviceRemoved:
            connected = false
            resolved = false
            serviceCount = 0
            return linkDown(
                reason: reportedReason ?? .supervisionTimeout,
                operationsError: AirlinkError(.linkLost, "BlueZ removed the device while it was connected"),
                attemptError: AirlinkError(.deviceNotFound, "BlueZ removed the device while connecting; scan again"))
        case .adapterPoweredOff(let adapter):
            connected = false
            resolved = false
            let error = AirlinkError(
                .adapterPoweredOff, "adapter \(adapter) was powered off: run `bluetoothctl power on`")
            return linkDown(
                reason: reportedReason ?? .localHostTerminated, operationsError: error, attemptError: error,
                failAnyAttempt: true)
        case .transportLost(let why):
            connected = false
            resolved = false
            return linkDown(
                reason: .localHostTerminated,
                operationsError: AirlinkError(.linkLost, "BlueZ went away (\(why))"),
                attemptError: AirlinkError(.transportUnavailable, "BlueZ went away while connecting (\(why))"))
        }
    }

    /// GATT objects change on the usable link: starts settling, or restarts its quiet period.
    private mutating func servicesChanging(awaitingResolved: Bool) -> [Action] {
        var actions: [Action] = []
        if settling == nil {
            settleTokens += 1
            settling = Settling(limitToken: settleTokens, quietToken: nil, awaitingResolved: awaitingResolved)
            actions.append(.armSettleLimit(settleTokens))
        }
        if awaitingResolved { settling?.awaitingResolved = true }
        guard settling?.awaitingResolved == false else { return actions }
        settleTokens += 1
        settling?.quietToken = settleTokens
        return actions + [.armSettleQuiet(settleTokens)]
    }

    /// The objects settled (or the limit passed): the change is announced.
    private mutating func servicesSettled() -> [Action] {
        settling = nil
        return announceServiceChange()
    }

    private mutating func announceServiceChange() -> [Action] {
        guard !servicesChangePending else { return [] }  // announced once until the app discovers again
        servicesChangePending = true
        return [.emitServicesChanged]
    }

    /// The link is down: announced and its operations failed if it was usable; the attempt fails if
    /// it had got anywhere (or in any case, with `failAnyAttempt`).
    private mutating func linkDown(
        reason: DisconnectionReason, operationsError: AirlinkError, attemptError: AirlinkError,
        failAnyAttempt: Bool = false
    ) -> [Action] {
        var actions: [Action] = []
        if isReady {
            isReady = false
            actions += [.emitDisconnected(reason), .failOperations(operationsError)]
        }
        if let current = attempt, failAnyAttempt || current.replied || current.sawConnected {
            attempt = nil
            actions.append(.fail(attemptError))
        }
        localDisconnect = false
        reportedReason = nil
        servicesChangePending = false
        settling = nil
        return actions
    }

    private mutating func evaluate() -> [Action] {
        guard var current = attempt else {
            // A link BlueZ brought up by itself.
            if !isReady && connected && resolved && serviceCount > 0 {
                isReady = true
                return [.emitConnected]
            }
            return []  // not up by itself (yet): nothing to announce
        }
        // While the tree is re-read, objects may be half announced: wait for the fresh tree.
        guard connected && resolved && current.replied && !current.refreshing else { return [] }  // not yet
        if serviceCount > 0 || (current.graceDone && current.refreshed) {
            attempt = nil
            isReady = true
            servicesChangePending = false
            return [.succeed, .emitConnected]
        }
        if !current.refreshed && !current.refreshing {
            current.refreshing = true
            attempt = current
            return [.refreshObjects]
        }
        if current.refreshed && !current.graceArmed {
            current.graceArmed = true
            attempt = current
            return [.armGrace]
        }
        return []  // the grace runs: graceExpired decides
    }
}
