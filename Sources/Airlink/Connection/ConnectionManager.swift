import AirlinkCore
import Logging
import Synchronization

/// One device's connection: connect, disconnect, and reconnect by a strategy after a loss.
///
/// Carries forward WLXBluetoothDevice's `WLXConnectionManager`. Obtain it from
/// ``DeviceManager/connection(to:reconnection:)``; there is one per device. Its decisions are made
/// by a ``ConnectionStateMachine``; this actor only performs them (calls the transport, sleeps on
/// the environment's clock, scans for the device) and reports events.
///
/// ```swift
/// let connection = manager.connection(
///     to: device, reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3))
/// )
/// try await connection.connect(timeout: .seconds(5))
/// let level = try await connection.services.service(.battery).read(UInt8.self, from: .batteryLevel)
/// ```
///
/// Guarantees: every `connect` and `disconnect` call returns exactly once; operations pending when
/// the link drops fail at once with ``/AirlinkCore/AirlinkError/Code/linkLost``; operations while disconnected
/// fail at once with ``/AirlinkCore/AirlinkError/Code/notConnected``; nothing waits forever.
public actor ConnectionManager {
    /// The identifier of the device this connection is to; fixed for its lifetime.
    public nonisolated let device: DeviceID
    /// The device's services: the same object across reconnections.
    public nonisolated let services: DeviceServices

    nonisolated let client: GATTClient
    private let transport: any Transport
    private let environment: AirlinkEnvironment
    private let bus: EventBus
    private let adapter: AdapterMonitor
    private let coordinator: ScanCoordinator
    private let logger: Logger
    private let recorder: ConnectionRecorder?
    private let broadcaster = Broadcaster<ConnectionEvent>()
    private nonisolated let strategyBox: Mutex<any ReconnectionStrategy>
    private nonisolated let stateBox = Mutex<ConnectionState>(.disconnected)
    private var machine: ConnectionStateMachine
    private var connectWaiters: [CheckedContinuation<Result<LinkInfo, AirlinkError>, Never>] = []
    private var disconnectWaiters: [CheckedContinuation<Void, Never>] = []
    private var attempt: (id: ConnectionStateMachine.AttemptID, task: Task<Void, Never>)?
    private var timer: (id: ConnectionStateMachine.TimerID, task: Task<Void, Never>)?
    private var watcher: AdvertisementWatcher?

    init(
        device: DeviceID, strategy: any ReconnectionStrategy, client: GATTClient, transport: any Transport,
        environment: AirlinkEnvironment, bus: EventBus, adapter: AdapterMonitor, coordinator: ScanCoordinator,
        recorder: ConnectionRecorder? = nil
    ) {
        self.recorder = recorder
        self.device = device
        self.client = client
        self.services = DeviceServices(client: client)
        self.transport = transport
        self.environment = environment
        self.bus = bus
        self.adapter = adapter
        self.coordinator = coordinator
        self.strategyBox = Mutex(strategy)
        var logger = environment.logger
        logger[metadataKey: "device"] = "\(device)"
        self.logger = logger
        let poweredOn = adapter.known.map { $0 == .poweredOn } ?? true
        self.machine = ConnectionStateMachine(
            device: device, strategy: strategy, random: environment.random, adapterPoweredOn: poweredOn)
        client.security.observe { [broadcaster] event in broadcaster.yield(event) }
    }

    /// The connection's state now.
    public nonisolated var state: ConnectionState { stateBox.withLock { $0 } }

    /// The reconnection strategy consulted after the next loss or failed attempt.
    public nonisolated var reconnectionStrategy: any ReconnectionStrategy {
        strategyBox.withLock { $0 }
    }

    /// Replaces the reconnection strategy; it applies from the next decision.
    public nonisolated func setReconnectionStrategy(_ strategy: some ReconnectionStrategy) {
        strategyBox.withLock { $0 = strategy }
    }

    /// A new stream of this connection's events, from now on; it ends when the device manager shuts
    /// down (an ended stream after it).
    public nonisolated func events() -> EventStream<ConnectionEvent> { broadcaster.subscribe() }

    /// Connects to the device: one attempt, which succeeds within `timeout` or fails.
    ///
    /// Returns at once if already connected. The reconnection strategy applies to links lost
    /// after this; a failed first connection is reported (``/AirlinkCore/ConnectionEvent/failedToConnect(_:)``)
    /// and thrown, not retried. Cancelling the calling task cancels the attempt.
    ///
    /// - Parameter timeout: how long the attempt may take; positive.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a timeout that is not positive or an invalid
    ///   strategy; ``/AirlinkCore/AirlinkError/Code/timeout``; ``/AirlinkCore/AirlinkError/Code/connectionFailed``
    ///   (cause kept); ``/AirlinkCore/AirlinkError/Code/deviceNotFound``;
    ///   ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``; ``/AirlinkCore/AirlinkError/Code/operationInProgress``
    ///   while another attempt, a reconnection or a disconnection is under way;
    ///   ``/AirlinkCore/AirlinkError/Code/cancelled``.
    public func connect(timeout: Duration) async throws(AirlinkError) {
        guard timeout > .zero else {
            throw .invalid("the connect timeout", "is \(timeout.text); pass a positive duration such as .seconds(5)")
        }
        try strategyBox.withLock { $0 }.validate()
        let poweredOn = await adapter.current() == .poweredOn
        if poweredOn != machine.adapterPoweredOn { handle(.adapterChanged(poweredOn: poweredOn)) }
        switch machine.state {
        case .connected:
            return
        case .disconnected:
            break
        case .connecting:
            throw AirlinkError(
                .operationInProgress, "a connection attempt to \(device) is under way; await it, or call disconnect()")
        case .disconnecting:
            throw AirlinkError(
                .operationInProgress, "\(device) is being disconnected; await disconnect() before connecting again")
        case .reconnecting(let number, _, let phase):
            throw AirlinkError(
                .operationInProgress,
                "\(device) is reconnecting (attempt \(number), \(phase)); wait for the reconnected or gaveUp event, "
                    + "or call disconnect() first")
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                connectWaiters.append(continuation)
                handle(.connectRequested(timeout: timeout))
            }
        } onCancel: {
            environment.spawn { await self.handle(.connectCancelled) }
        }
        _ = try result.get()
        await recorder?.settle()  // the record is saved when connect returns
    }

    /// Disconnects: closes the link, or stops a connection attempt or a reconnection. Returns once
    /// the link is down; does nothing if already disconnected. Enabled notifications are forgotten.
    public func disconnect() async {
        if case .disconnected = machine.state { return }
        await withCheckedContinuation { continuation in
            disconnectWaiters.append(continuation)
            handle(.disconnectRequested)
        }
    }

    /// Reads the RSSI of the connected device, in dBm.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/notConnected``, ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``,
    ///   and what the transport throws.
    public nonisolated func readRSSI() async throws(AirlinkError) -> Int {
        try await adapter.requirePoweredOn("read the RSSI of \(device)")
        _ = try client.requireLink("read the RSSI")
        return try await transport.readRSSI(device)
    }

    /// The negotiated ATT MTU, or `nil` while disconnected.
    public nonisolated var mtu: Int? { client.info?.mtu }

    /// The longest value a write of `type` can carry: 512 with response, MTU − 3 without.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/notConnected`` while disconnected.
    public nonisolated func maximumWriteLength(for type: WriteType) throws(AirlinkError) -> Int {
        try client.maximumWriteLength(for: type)
    }

    // MARK: Driving the machine

    /// Feeds one event to the machine and performs what it decides.
    func handle(_ event: ConnectionStateMachine.Event) {
        machine.strategy = strategyBox.withLock { $0 }
        let actions = machine.handle(event)
        stateBox.withLock { $0 = machine.state }
        for action in actions { perform(action) }
    }

    private func perform(_ action: ConnectionStateMachine.Action) {
        switch action {
        case .startAttempt(let id, let timeout):
            logger.debug("connecting (\(id), timeout \(timeout.text))")
            let (transport, device) = (self.transport, self.device)
            attempt = (
                id,
                environment.spawn {
                    do throws(AirlinkError) {
                        let info = try await transport.connect(device, timeout: timeout)
                        await self.handle(.attemptSucceeded(id, info))
                    } catch {
                        await self.handle(.attemptFailed(id, error))
                    }
                }
            )
        case .cancelAttempt(let id):
            if let attempt, attempt.id == id {
                attempt.task.cancel()
                self.attempt = nil
            }
        case .closeLink:
            let (transport, device) = (self.transport, self.device)
            environment.spawn {
                await transport.disconnect(device)
                await self.handle(.disconnectCompleted)
            }
        case .startTimer(let id, let delay):
            timer?.task.cancel()
            let clock = environment.clock
            timer = (
                id,
                environment.spawn {
                    // try?: sleep throws only when cancelled, and a cancelled timer has nothing to report
                    guard (try? await clock.sleep(for: delay)) != nil else { return }
                    await self.handle(.timerFired(id))
                }
            )
        case .cancelTimer(let id):
            if let timer, timer.id == id {
                timer.task.cancel()
                self.timer = nil
            }
        case .watchAdvertisements:
            startWatching()
        case .stopWatchingAdvertisements:
            stopWatching()
        case .completeConnect(let result):
            let waiters = connectWaiters
            connectWaiters.removeAll()
            for waiter in waiters { waiter.resume(returning: result) }
        case .completeDisconnect:
            let waiters = disconnectWaiters
            disconnectWaiters.removeAll()
            for waiter in waiters { waiter.resume() }
        case .linkReady(let info):
            client.linkUp(info)
        case .linkUnusable(let error, let keep):
            client.linkDown(error, keepSubscriptions: keep)
        case .emit(let event):
            switch event {
            case .connected, .reconnected:
                recorder?.connectionEstablished(device, services: client.discoveredServices.map(\.uuid))
            default:
                break
            }
            broadcaster.yield(event)
            bus.publish(.connection(device, event))
            // The values' source is gone for good: a loss no reconnection follows, the strategy gave up,
            // or the app disconnected.
            switch event {
            case .gaveUp, .terminated: client.endStreams()
            case .lost where machine.state == .disconnected: client.endStreams()
            default: break
            }
        }
    }

    private func startWatching() {
        stopWatching()
        // Weakly: the coordinator keeps the watcher, and this connection keeps the coordinator; a
        // strong reference would keep a connection reconnecting at shutdown (and its radio) forever.
        let watcher = AdvertisementWatcher(device: device) { [weak self, environment] in
            guard let self else { return }
            environment.spawn { await self.handle(.advertisementSeen) }
        }
        self.watcher = watcher
        coordinator.register(watcher)
        let (coordinator, situation) = (self.coordinator, "to watch for \(device)")
        environment.spawn { await coordinator.reconcileLogging(situation) }
    }

    private func stopWatching() {
        guard let watcher else { return }
        self.watcher = nil
        watcher.cancel()
        coordinator.unregister(watcher)
        let (coordinator, situation) = (self.coordinator, "as the watch for \(device) ended")
        environment.spawn { await coordinator.reconcileLogging(situation) }
    }

    /// Ends the event stream (the device manager shuts down).
    nonisolated func finish() { broadcaster.finish() }
}

/// Waits for one device's advertisement on behalf of a reconnecting connection.
final class AdvertisementWatcher: ScanClient, Sendable {
    let device: DeviceID
    private let onSeen: Mutex<(@Sendable () -> Void)?>

    init(device: DeviceID, onSeen: @escaping @Sendable () -> Void) {
        self.device = device
        self.onSeen = Mutex(onSeen)
    }

    /// Every advertisement of every device: a device may come back without its services listed.
    var scanFilter: ScanFilter { ScanFilter(services: nil, allowDuplicates: true) }

    func receive(_ device: DeviceID, _ advertisement: Advertisement) {
        guard device == self.device else { return }
        let seen = onSeen.withLock { onSeen in
            defer { onSeen = nil }
            return onSeen
        }
        seen?()
    }

    func cancel() { onSeen.withLock { $0 = nil } }
}
