import AirlinkCore
import Logging
import Synchronization

/// The device manager's insides: the tables of connections and discoveries, and the loop that
/// routes each transport event to the layer it concerns, in the order the transport observed them.
final class EventRouter: Sendable {
    private struct State {
        var connections: [DeviceID: ConnectionManager] = [:]
        var order: [ConnectionManager] = []
        var discoveries: [Discovery] = []
        var nextDiscoveryID = 0
    }

    let transport: any Transport
    let environment: AirlinkEnvironment
    let configuration: DeviceManager.Configuration
    let bus: EventBus
    let adapter: AdapterMonitor
    let scans: ScanCoordinator
    let patterns = NamePatterns()
    let recorder: ConnectionRecorder?
    private let state = Mutex(State())

    init(
        transport: any Transport, environment: AirlinkEnvironment, configuration: DeviceManager.Configuration,
        recorder: ConnectionRecorder? = nil
    ) {
        self.recorder = recorder
        self.transport = transport
        self.environment = environment
        self.configuration = configuration
        self.bus = EventBus(environment: environment)
        self.adapter = AdapterMonitor(transport: transport)
        self.scans = ScanCoordinator(transport: transport, logger: environment.logger)
    }

    // MARK: Tables

    func nextDiscoveryID() -> Int {
        state.withLock { state in
            state.nextDiscoveryID += 1
            return state.nextDiscoveryID
        }
    }

    /// Keeps a running discovery, to stop it if the adapter goes off.
    func track(_ discovery: Discovery) {
        state.withLock { state in
            state.discoveries.removeAll { !$0.isRunning }
            state.discoveries.append(discovery)
        }
    }

    func connection(to device: DeviceID, strategy: some ReconnectionStrategy) -> ConnectionManager {
        let (connection, created) = state.withLock { state -> (ConnectionManager, Bool) in
            if let existing = state.connections[device] { return (existing, false) }
            let client = GATTClient(
                device: device, transport: transport, environment: environment, bus: bus, adapter: adapter,
                capacity: configuration.notificationBufferCapacity, recorder: recorder,
                caching: configuration.databaseCaching)
            let connection = ConnectionManager(
                device: device, strategy: strategy, client: client, transport: transport, environment: environment,
                bus: bus, adapter: adapter, coordinator: scans, recorder: recorder)
            state.connections[device] = connection
            state.order.append(connection)
            return (connection, true)
        }
        if !created { connection.setReconnectionStrategy(strategy) }
        return connection
    }

    var allConnections: [ConnectionManager] { state.withLock { $0.order } }

    private func existing(_ device: DeviceID) -> ConnectionManager? {
        state.withLock { $0.connections[device] }
    }

    // MARK: The loop

    /// Routes the transport's events until the stream ends or the task is cancelled.
    func run(_ stream: TransportEvents) async {
        let initial = await transport.adapterState
        if adapter.recordInitial(initial) { environment.logger.debug("adapter is \(initial)") }
        var lastDevice: DeviceID?
        var lastLink: GATTClient?
        var iterator = stream.makeAsyncIterator()
        while let event = await iterator.next() {
            switch event {
            case .notification(let device, let handle, let value):
                if device != lastDevice {  // most notifications come from the device of the previous one
                    lastLink = existing(device)?.client
                    lastDevice = lastLink == nil ? nil : device
                }
                lastLink?.deliver(handle: handle, value: value)
            case .advertisement(let device, let advertisement):
                recorder?.noteAdvertisement(device, advertisement)
                scans.deliver(device, advertisement)
            case .connected(let device):
                await existing(device)?.handle(.linkUp)
            case .disconnected(let device, let reason):
                await existing(device)?.handle(.linkDown(reason))
            case .servicesChanged(let device, let range):
                existing(device)?.client.servicesChanged(range: range)
            case .adapterStateChanged(let new):
                await adapterChanged(to: new)
            case .bondChanged(let device, let bonded):
                existing(device)?.client.security.bondChanged(bonded: bonded)
            case .securityRequested(let device, let request):
                existing(device)?.client.security.securityRequested(request)
            }
        }
    }

    private func adapterChanged(to new: AdapterState) async {
        let old = adapter.record(new)
        guard old != new else { return }
        bus.publish(.adapterStateChanged(new))
        let poweredOn = new == .poweredOn
        if !poweredOn {
            scans.adapterPoweredOff()
            stopDiscoveries(.adapter(new))
        }
        for connection in allConnections { await connection.handle(.adapterChanged(poweredOn: poweredOn)) }
        if poweredOn { await scans.reconcileLogging("as the adapter powered on") }
    }

    /// Ends every stream the layers hand out, and the discoveries still running (as stopped by the app):
    /// a running discovery and the scan coordinator refer to each other until it stops.
    func finish() {
        stopDiscoveries(.stopped)
        for connection in allConnections {
            connection.finish()
            connection.client.finish()
        }
        bus.finish()
    }

    /// Stops the running discoveries for `reason` and takes them off the scan coordinator, without
    /// waiting for the transport.
    private func stopDiscoveries(_ reason: DiscoveryStopReason) {
        let running = state.withLock { state -> [Discovery] in
            defer { state.discoveries.removeAll() }
            return state.discoveries
        }
        for discovery in running { discovery.stopLocally(reason) }
        for discovery in running { scans.unregister(discovery) }
    }
}
