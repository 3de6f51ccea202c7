import AirlinkCore
import DequeModule

/// One LE link between a virtual central and a simulated peripheral: the link-layer timing, the two
/// directions of ATT traffic, the peripheral's ``ATTServer`` and the central's queue of procedures.
final class Link: RadioConfined, @unchecked Sendable {
    // @unchecked: every mutable field is used under `world.lock`. Debug builds assert it in each internal member
    // that touches one (``RadioConfined/assertConfined(_:file:line:)``); another type's direct access to a field is
    // not checked by itself.
    // `@exclusivity(unchecked)`: the fields every PDU touches skip the runtime's dynamic exclusivity
    // checks (a tenth of a read's instructions, Docs/Performance.md); the lock and the driver's one
    // event at a time already keep their accesses apart.
    unowned let world: RadioWorld
    let linkID: Int
    let central: VirtualRadio
    let peripheral: RadioPeripheral
    @exclusivity(unchecked) var server: ATTServer

    let interval: VirtualDuration
    let latency: Int
    let supervisionTimeout: VirtualDuration
    let phy: PHY
    let dataLength: Int
    let eventLength: VirtualDuration
    /// The start of the first connection event; every later one starts a whole number of intervals on.
    let anchor: VirtualInstant

    /// The ATT MTU as the central knows it (23 until the exchange completes).
    @exclusivity(unchecked) var mtu: UInt16 = ATTServer.defaultMTU
    /// Whether `.connected` was announced.
    @exclusivity(unchecked) var isUp = false
    /// Whether the link is gone.
    @exclusivity(unchecked) var isClosed = false
    /// Whether the peripheral's firmware still runs this link (false after a reset).
    @exclusivity(unchecked) var peripheralAlive = true
    /// Whether the peripheral can be heard.
    @exclusivity(unchecked) var peripheralReachable = true
    var silenceGeneration = 0

    /// A PDU waiting to cross, with the L2CAP bytes (PDU + 4-byte header) still to send.
    struct Outgoing {
        var payload: LinkPayload
        var remaining: Int
    }
    @exclusivity(unchecked) var toPeripheral = Deque<Outgoing>()
    @exclusivity(unchecked) var toCentral = Deque<Outgoing>()
    /// The start of the connection event armed to carry queued traffic, if one is armed.
    @exclusivity(unchecked) var pumpAt: VirtualInstant?
    /// PDUs that crossed in a connection event, waiting for the event's delivery (Link+Timing.swift).
    @exclusivity(unchecked) var inFlight = Deque<InFlightPDU>()
    @exclusivity(unchecked) var nextBatch: Int64 = 0

    @exclusivity(unchecked) var operations = Deque<LinkOperation>()
    @exclusivity(unchecked) var awaitingResponse = false
    @exclusivity(unchecked) var requestDeadline: VirtualInstant?
    @exclusivity(unchecked) var requestTimerAt: VirtualInstant?
    @exclusivity(unchecked) var serviceChangedHandle: ATTHandle?
    @exclusivity(unchecked) var cccdCache: [ATTHandle: ATTHandle] = [:]
    /// Ranges the peripheral indicated as changed that no service discovery has learned again
    /// (Link+ServiceChanged.swift).
    @exclusivity(unchecked) var staleRanges: [ClosedRange<ATTHandle>] = []
    /// Per characteristic value handle, the radio's clients that enabled its notifications, in order
    /// (``VirtualRadio/setNotifications(_:characteristic:mode:client:)``).
    @exclusivity(unchecked) var notificationClients: [ATTHandle: [(client: Int, mode: NotificationMode)]] = [:]
    /// Value handles whose CCCD a client's disable left on because another client's enable was under way
    /// (written off if that enable fails with no client left). Looked up only, never iterated.
    @exclusivity(unchecked) var cccdDisableOwed: Set<ATTHandle> = []
    var attempt: ConnectAttempt?
    /// The pairing under way (Security/VirtualRadio+Pairing.swift).
    var pairing: PairingProcess?
    /// Whether SMP timed out on this link: no further pairing until the central connects again (Core Spec
    /// Vol 3, Part H, 3.4).
    var smpTimedOut = false
    var disconnectWaiters: [UnsafeContinuation<Void, Never>] = []

    /// The ATT transaction timeout (Core Spec Vol 3, Part F, 3.3.3).
    static let transactionTimeout = VirtualDuration.seconds(30)

    init(
        world: RadioWorld, central: VirtualRadio, peripheral: RadioPeripheral, parameters: LinkParameters,
        anchor: VirtualInstant
    ) {
        self.world = world
        self.linkID = world.nextLinkID
        world.nextLinkID += 1
        self.central = central
        self.peripheral = peripheral
        self.server = ATTServer(database: peripheral.database, preferredMTU: UInt16(peripheral.spec.preferredMTU))
        self.interval = VirtualDuration(parameters.connectionInterval)
        self.latency = parameters.peripheralLatency
        self.supervisionTimeout = VirtualDuration(parameters.supervisionTimeout)
        self.phy = parameters.phy
        self.dataLength = min(parameters.dataLength, peripheral.spec.maximumDataLength)
        self.eventLength = VirtualDuration(parameters.eventLength ?? parameters.connectionInterval)
        self.anchor = anchor
    }

    var info: LinkInfo {
        assertConfined()
        return LinkInfo(mtu: Int(mtu), connectionInterval: interval.duration)
    }

    /// The parameters the link was established with, for the trace.
    var parameters: ConnectionParameters {
        ConnectionParameters(
            interval: interval.duration, latency: latency, supervisionTimeout: supervisionTimeout.duration,
            phy: phy, dataLength: dataLength)
    }

    // MARK: Reachability and loss

    /// The peripheral became audible or inaudible; silence longer than the supervision timeout ends
    /// the link with 0x08 Connection Timeout.
    func setPeripheralReachable(_ reachable: Bool) {
        assertConfined()
        guard !isClosed, reachable != peripheralReachable else { return }
        peripheralReachable = reachable
        if reachable {
            silenceGeneration += 1
            ensurePump()
        } else {
            startSupervision()
        }
    }

    /// The peripheral rebooted: it no longer answers on this link.
    func peripheralVanished() {
        assertConfined()
        guard !isClosed, peripheralAlive else { return }
        peripheralAlive = false
        toCentral.removeAll()
        startSupervision()
    }

    private func startSupervision() {
        silenceGeneration += 1
        let generation = silenceGeneration
        world.schedule(at: world.now + supervisionTimeout) { [self] in
            guard generation == silenceGeneration, !isClosed else { return }
            drop(reason: .supervisionTimeout)
        }
    }

    /// Ends the link at once: pending operations fail with `linkLost`, the central hears
    /// `.disconnected(reason:)` (if it heard `.connected`), and the peripheral may advertise again.
    func drop(reason: DisconnectionReason) {
        assertConfined()
        guard !isClosed else { return }
        isClosed = true
        peripheral.links.removeAll { $0 === self }
        if isUp { peripheral.clientDisconnected(self) }
        toPeripheral.removeAll()
        toCentral.removeAll()
        world.record(.disconnected(adapter: central.adapterIndex, device: peripheral.id, reason: reason))
        let pending = operations
        operations.removeAll()
        awaitingResponse = false
        if !pending.isEmpty || attempt != nil {  // described only when someone hears it: most drops end idle links
            let error = AirlinkError(
                .linkLost, "the link to \(peripheral.id) dropped: \(reason)", cause: .other("HCI \(reason)"))
            for operation in pending { operation.fail(error) }
            if let attempt {
                self.attempt = nil
                attempt.finish(.failure(error))
            }
        }
        pairing?.finish(
            .failure(
                AirlinkError(
                    .linkLost, "the link to \(peripheral.id) dropped during pairing: \(reason)",
                    cause: .other("HCI \(reason)"))))
        central.linkClosed(self, reason: reason)
        peripheral.host?.centralDisconnected(self, reason: reason)
        for waiter in disconnectWaiters { waiter.resume() }
        disconnectWaiters = []
    }
}
