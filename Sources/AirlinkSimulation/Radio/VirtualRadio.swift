import AirlinkCore

/// The deterministic, in-process implementation of ``/AirlinkCore/Transport``: a virtual central adapter on the air
/// of a ``Simulation``.
///
/// Simulated peripherals advertise at their own intervals (plus the random 0–10 ms advDelay), links
/// run connection events whose packet budget follows the PHY, the data length and the event length,
/// and both ends speak ATT as bytes: the peripheral through an ``ATTServer`` per link, the central
/// through the GATT client procedures. Every PDU that crosses the air is a line of the trace
/// (`att` category), every injected fault too (`fault`).
///
/// ```swift
/// let sim = Simulation(seed: 7)
/// let thermostat = try sim.add(.thermostat())
/// let radio = sim.radio
/// let info = try await sim.run { try await radio.connect(thermostat.id, timeout: .seconds(5)) }
/// ```
///
/// Faults are verbs: ``powerOffAdapter()`` and ``powerOnAdapter()`` here, the rest on
/// ``SimulatedPeripheral``.
public final class VirtualRadio: Transport, RadioConfined, @unchecked Sendable {
    // @unchecked: every mutable field is used under `world.lock`; debug builds check it in the members that
    // run under it (``RadioConfined/assertConfined(_:file:line:)``).
    let world: RadioWorld
    /// The adapter's index on the air: 0 for `Simulation.radio`, 1, 2... for further centrals.
    let adapterIndex: Int

    var state: AdapterState = .poweredOn
    var parameters: LinkParameters
    /// The filter the adapter scans with: the union of its clients' (``scanClients``).
    var scanFilter: ScanFilter?
    /// The scans of the radio's clients, in the order they started: the radio itself is client 0, each
    /// ``VirtualRadioSession`` another.
    var scanClients: [(client: Int, filter: ScanFilter)] = []
    /// The next ``VirtualRadioSession``'s client number.
    var nextClient = 1
    var seen: [DeviceID: Advertisement] = [:]
    var links: [DeviceID: Link] = [:]
    /// The Service Changed value handle each peripheral's last link setup found (a central keeps it, as a
    /// bonded one keeps its cache: the handle may not move while a server has bonds, Vol 3, Part G, 7.1).
    var serviceChangedHandles: [DeviceID: ATTHandle] = [:]
    var linkOrder: [Link] = []
    /// The bonds this central keeps, by peripheral (Security/VirtualRadio+Pairing.swift).
    var bonds: [DeviceID: PairingResult] = [:]
    var attempts: [ConnectAttempt] = []
    /// Every subscriber of ``events()``.
    let broadcaster = Broadcaster<TransportEvent>()
    /// The peripheral role, once used (``VirtualRadio+Peripheral.swift``).
    var peripheralRole: VirtualPeripheralRole?
    /// The host an HCI controller stands in front of, once attached (``VirtualRadio+Host.swift``): its links
    /// carry the host's own ATT, raw.
    var host: HostBearer?

    /// `sim`: what a user types to choose the virtual radio.
    public let name = "sim"

    init(world: RadioWorld, parameters: LinkParameters = LinkParameters()) {
        self.world = world
        self.parameters = parameters
        adapterIndex = world.lock.withLock { world.centrals.count }
        world.lock.withLock { world.centrals.append(self) }
    }

    /// Creates a further central adapter on the simulation's air (the first is ``Simulation/radio``).
    ///
    /// - Parameters:
    ///   - simulation: the simulation whose peripherals it sees.
    ///   - parameters: the link parameters it asks for.
    public convenience init(simulation: Simulation, parameters: LinkParameters = LinkParameters()) {
        self.init(world: simulation.world, parameters: parameters)
    }

    /// The link parameters this central asks for on its next links.
    ///
    /// Setting invalid parameters is ignored with a trace line; check them with
    /// ``LinkParameters/validate()`` first.
    public var linkParameters: LinkParameters {
        get { world.lock.withLock { parameters } }
        set {
            do {
                try newValue.validate()
                world.lock.withLock { parameters = newValue }
            } catch {
                world.record("radio", "link parameters refused: \(error.message)")
            }
        }
    }

    /// The path-loss model of the air (shared by every central of the simulation).
    public var pathLossModel: PathLossModel {
        get { world.lock.withLock { world.pathLoss } }
        set {
            world.lock.withLock {
                world.pathLoss = newValue
                for peripheral in world.peripherals { peripheral.reachabilityChanged() }
            }
        }
    }

    /// The adapter's current power state.
    public var adapterState: AdapterState {
        get async { world.lock.withLock { state } }
    }

    /// The trace prefix for PDUs of this central: empty for the first, `hci1 ` for the second...
    var tracePrefix: String { adapterIndex == 0 ? "" : "hci\(adapterIndex) " }

    // MARK: Events

    /// A new stream of everything this central observes; an ended one after ``shutdown()``.
    public func events() -> TransportEvents { broadcaster.subscribe() }

    /// Delivers an event to every subscriber, in the order they subscribed (called under the world's
    /// lock, which orders the radio's events).
    func emit(_ event: consuming TransportEvent) { broadcaster.yield(event) }

    /// Ends every event stream, this central's and its peripheral role's; later subscribers get
    /// ended streams.
    public func shutdown() {
        world.lock.withLock {  // under the lock: a role created concurrently sees the end
            broadcaster.finish()
            peripheralRole?.broadcaster.finish()
        }
    }

    /// Fails what waits on links and attempts, forgets them and ends the event streams (the simulation
    /// is going away): a task awaiting an answer that never comes would stay suspended, keeping what it
    /// holds (its connection, its client, the simulation) for the rest of the process.
    func tearDown() {
        world.lock.withLock {
            let error = AirlinkError(.cancelled, "the simulation ended while this was under way")
            for link in linkOrder { link.abandon(error) }
            for attempt in attempts { attempt.finish(.failure(error)) }
            links = [:]
            linkOrder = []
            attempts = []
        }
        shutdown()
    }

    /// Throws `adapterPoweredOff` while the adapter is off.
    func checkPowered(_ what: @autoclosure () -> String) throws(AirlinkError) {
        assertConfined()
        guard state == .poweredOn else {
            throw AirlinkError(.adapterPoweredOff, "cannot \(what()): the adapter is powered off; power it on first")
        }
    }

    // MARK: Adapter faults

    /// Powers the adapter off: every link drops (reason 0x16, local host terminated), attempts and
    /// scans stop; `.adapterStateChanged(.poweredOff)` follows the `.disconnected` events.
    public func powerOffAdapter() {
        world.lock.withLock {
            guard state == .poweredOn else { return }
            world.record("fault", "\(tracePrefix)adapter powers off")
            state = .poweredOff
            stopScanLocked()
            for attempt in attempts {
                attempt.finish(
                    .failure(
                        AirlinkError(
                            .adapterPoweredOff, "connecting to \(attempt.peripheral.id) failed: the adapter powered off"
                        )))
            }
            for link in linkOrder { link.drop(reason: .localHostTerminated) }
            emit(.adapterStateChanged(.poweredOff))
        }
    }

    /// Powers the adapter on again; links are not restored.
    public func powerOnAdapter() {
        world.lock.withLock {
            guard state != .poweredOn else { return }
            world.record("fault", "\(tracePrefix)adapter powers on")
            state = .poweredOn
            emit(.adapterStateChanged(.poweredOn))
        }
    }

    /// Applies an adapter fault `delay` from now.
    public func schedule(_ fault: RadioFault, after delay: Duration) {
        world.lock.withLock {
            world.schedule(at: world.now + VirtualDuration(delay)) { [self] in
                switch fault {
                case .powerOffAdapter: powerOffAdapter()
                case .powerOnAdapter: powerOnAdapter()
                default: world.record("fault", "\(fault) is a peripheral fault; schedule it on the peripheral")
                }
            }
        }
    }
}
