import AirlinkCore
import AirlinkRegistry
import Logging
import Synchronization

/// The root of Airlink's layers: an app obtains discovery, connections, services and events here.
///
/// Built on a ``/AirlinkCore/Transport`` (the virtual radio, or BlueZ) and an ``/AirlinkCore/AirlinkEnvironment``
/// (clock, executor, random source, trace, logger). The layers never ask which transport runs: the same code works in a
/// `Simulation` and on an adapter. Carries forward WLXBluetoothDevice's `WLXBluetoothDeviceManager`.
///
/// ```swift
/// let manager = DeviceManager(transport: transport, environment: environment)
/// let discovery = try await manager.discover(named: "Thermo.*", timeout: .seconds(5))
/// await discovery.waitUntilStopped()
/// let connection = manager.connection(
///     to: discovery.devices[0].id, reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3))
/// )
/// try await connection.connect(timeout: .seconds(5))
/// ```
///
/// It reports the adapter's power state (``adapterState``) and its changes
/// (``/AirlinkCore/AirlinkEvent/adapterStateChanged(_:)``); while the adapter is off, every operation fails at
/// once with ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``.
public final class DeviceManager: Sendable {
    /// Tunables of a device manager.
    public struct Configuration: Sendable, Hashable {
        /// How many notified values each observer's buffer holds (and each service's lane of
        /// closure observers). Past it, newer values are dropped and the gap is reported, never
        /// hidden (see ``DeviceService/values(of:)``). At least 1.
        public var notificationBufferCapacity: Int
        /// Whether a device's discovered GATT database is kept in the registry and reused on later
        /// connections: ``DatabaseCaching/verified`` (by the Database Hash) unless set otherwise. Needs a
        /// registry. Docs/GATTCaching.md says what Airlink trusts and when.
        public var databaseCaching: DatabaseCaching

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - notificationBufferCapacity: values buffered per observer (default 4096).
        ///   - databaseCaching: whether discovered databases are cached across connections (default
        ///     ``DatabaseCaching/verified``).
        public init(notificationBufferCapacity: Int = 4096, databaseCaching: DatabaseCaching = .verified) {
            self.notificationBufferCapacity = notificationBufferCapacity
            self.databaseCaching = databaseCaching
        }
    }

    /// The transport every layer talks through: the virtual radio or BlueZ.
    public let transport: any Transport
    /// The environment layers take their effects from.
    public let environment: AirlinkEnvironment
    /// The settings the manager was created with: how many notified values each observer buffers.
    public let configuration: Configuration

    /// The registry connections are recorded in, if any.
    public let registry: DeviceRegistry?

    let recorder: ConnectionRecorder?
    let router: EventRouter
    private let pump: Task<Void, Never>

    /// Creates a device manager and starts listening to the transport.
    ///
    /// The manager listens until ``shutdown()``, even if the app keeps only the connections or
    /// discoveries it obtained: they keep working without a reference to the manager.
    ///
    /// - Parameters:
    ///   - transport: the transport to use.
    ///   - environment: the clock, executor, random source, trace and logger (a `Simulation`'s
    ///     `environment`, or ``/AirlinkCore/AirlinkEnvironment/live(logger:)``).
    ///   - configuration: tunables.
    ///   - registry: where every established connection (and reconnection) is recorded, or `nil`
    ///     to remember nothing. See ``connection(toKnown:reconnection:)``.
    ///   - recordClock: the clock of the records' times; by default the environment's clock from
    ///     1970 (give a wall-clock epoch, `RecordClock(environment.clock, epoch: RecordTimestamp(Date()))`,
    ///     where records outlive the process).
    public init(
        transport: any Transport, environment: AirlinkEnvironment, configuration: Configuration = .init(),
        registry: DeviceRegistry? = nil, recordClock: RecordClock? = nil
    ) {
        self.transport = transport
        self.environment = environment
        self.configuration = configuration
        self.registry = registry
        let recorder = registry.map { registry in
            ConnectionRecorder(
                registry: registry, clock: recordClock ?? RecordClock(environment.clock, epoch: .epoch),
                environment: environment)
        }
        self.recorder = recorder
        let router = EventRouter(
            transport: transport, environment: environment, configuration: configuration, recorder: recorder)
        self.router = router
        let stream = transport.events()  // subscribe now, so that nothing is missed
        self.pump = environment.spawn { await router.run(stream) }
    }

    /// The adapter's power state (asked of the transport the first time, then followed by events).
    public var adapterState: AdapterState {
        get async { await router.adapter.current() }
    }

    /// A new stream of the events `predicate` admits (all by default), from now on; it ends at
    /// ``shutdown()`` (an ended stream after it). The predicate runs on the thread that publishes.
    ///
    /// - Parameter predicate: which events to deliver, for example `{ $0.device == id }`.
    public func events(where predicate: (@Sendable (AirlinkEvent) -> Bool)? = nil) -> EventStream<AirlinkEvent> {
        router.bus.subscribe(where: predicate)
    }

    /// A new stream of the events concerning one device; it ends at ``shutdown()``.
    public func events(for device: DeviceID) -> EventStream<AirlinkEvent> {
        router.bus.subscribe { $0.device == device }
    }

    /// Starts discovering devices; returns once the scan runs.
    ///
    /// A device is discovered when it matches every filter given: its whole advertised name
    /// matches `pattern` (a regular expression: `"Tracker.*"` matches `Tracker`, `Tracker1` and
    /// `Tracker A`), and it advertises at least one of `services`.
    ///
    /// - Parameters:
    ///   - pattern: a regular expression for the name, or `nil` for any device.
    ///   - services: the services of interest (a device advertising one matches), or `nil`.
    ///   - timeout: how long to scan; positive. The discovery stops by itself after it.
    ///   - options: scan options (whether duplicates are reported).
    /// - Returns: the running discovery.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the argument (a timeout that is not
    ///   positive, a pattern that is not a regular expression, an empty service list);
    ///   ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``; what the transport's scan throws.
    public func discover(
        named pattern: String? = nil, services: [BluetoothUUID]? = nil, timeout: Duration,
        options: ScanOptions = .init()
    ) async throws(AirlinkError) -> Discovery {
        guard timeout > .zero else {
            throw .invalid("the discovery timeout", "is \(timeout.text); pass how long to scan, such as .seconds(10)")
        }
        if let services, services.isEmpty {
            throw .invalid("the list of services to discover", "is empty; pass nil to accept every device")
        }
        let discovery = Discovery(
            id: router.nextDiscoveryID(), namePattern: pattern, pattern: try router.patterns.compile(pattern),
            services: services, timeout: timeout, options: options, environment: environment, bus: router.bus,
            coordinator: router.scans)
        try await router.adapter.requirePoweredOn("discover devices")
        try await router.scans.add(discovery)
        router.track(discovery)
        discovery.started()
        return discovery
    }

    /// The connection manager of a device: always the same object for the same device.
    ///
    /// - Parameters:
    ///   - device: the device, as discovered or known.
    ///   - reconnection: what to do when the link is lost: `.none` (the default; the loss is
    ///     reported at once), `.linear(...)`, `.exponential(...)`, `.whenAdvertising(...)`, or your own.
    ///     For an existing manager, the strategy replaces its current one from the next decision.
    public func connection(
        to device: DeviceID, reconnection: some ReconnectionStrategy = NoReconnectionStrategy()
    ) -> ConnectionManager {
        router.connection(to: device, strategy: reconnection)
    }

    /// The connection managers obtained so far, in the order they were created.
    public var connections: [ConnectionManager] { router.allConnections }

    /// Stops listening to the transport, stops the discoveries still running
    /// (``/AirlinkCore/DiscoveryStopReason/stopped``) and ends every event stream. The manager is unusable after.
    public func shutdown() {
        pump.cancel()
        router.finish()
    }
}
