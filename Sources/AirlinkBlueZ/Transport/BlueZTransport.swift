import AirlinkCore
import Logging
import Synchronization

/// ``/AirlinkCore/Transport`` on BlueZ 5 through its D-Bus API: a real adapter on Linux.
///
/// Open one with ``open(_:)``; the CLI and apps do so through `AirlinkTransports` with the string
/// `bluez` or `bluez:hci1`. BlueZ's behaviours are handled on purpose (see Docs/RealAdapter.md):
/// a link is usable only once `ServicesResolved` is true and the GATT objects exist; `InProgress`
/// becomes ``/AirlinkCore/AirlinkError/Code/operationInProgress``; `le-connection-abort-by-local` a retryable
/// ``/AirlinkCore/AirlinkError/Code/connectionFailed``; a notification that arrives before `StartNotify` returns
/// is delivered; a device BlueZ already knows connects without a scan; objects appearing or
/// vanishing on a connected device are reported as ``/AirlinkCore/TransportEvent/servicesChanged(_:range:)``.
/// Attribute handles come from the object paths (`service000a/char000b/desc000d`), so discovery gives
/// the same values as the virtual radio.
///
/// Signals, replies and timers are handled on the D-Bus connection's own thread, in arrival order;
/// events are emitted from there, so their order is the order BlueZ reported.
public final class BlueZTransport: Transport {
    /// How to open the transport.
    public struct Configuration: Sendable {
        /// The adapter (`hci0`, `hci1`), or `nil` for the first one BlueZ lists.
        public var adapter: String?
        /// A D-Bus address to use instead of the system bus (`unix:path=/tmp/bus`); `nil` uses the
        /// system bus, honouring `DBUS_SYSTEM_BUS_ADDRESS`.
        public var busAddress: String?
        /// How long a GATT or adapter call may wait for BlueZ.
        public var operationTimeout: Duration
        /// How long `Device1.Pair` may wait for BlueZ: SMP's 30 s and a margin, under the layers' 40 s.
        public var pairingTimeout: Duration = .seconds(35)
        /// How long to wait for GATT objects BlueZ has not exported when `ServicesResolved` turns true.
        public var servicesGrace: Duration
        /// After Service Changed, how long no GATT object may change before the objects count as settled
        /// and ``/AirlinkCore/TransportEvent/servicesChanged(_:range:)`` is emitted (BlueZ may re-add them one by one).
        public var servicesQuietPeriod: Duration
        /// The longest wait for the objects to settle after Service Changed: the change is announced then.
        public var servicesSettleLimit: Duration
        /// The HCI access for what D-Bus lacks (adapters, RSSI of a connection).
        public var hci: any KernelHCI
        /// Where the transport logs.
        public var logger: Logger

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - adapter: `hci0`, `hci1` ..., or `nil` for the first adapter.
        ///   - busAddress: a bus address, or `nil` for the system bus.
        ///   - operationTimeout: the limit of each BlueZ call (default 30 s, BlueZ's own ATT timeout).
        ///   - servicesGrace: the wait for late GATT objects (default 2 s).
        ///   - servicesQuietPeriod: the quiet time that ends a Service Changed (default 200 ms).
        ///   - servicesSettleLimit: the longest a Service Changed may take to settle (default 10 s).
        ///   - hci: HCI access (default libbluetooth).
        ///   - logger: the logger.
        public init(
            adapter: String? = nil, busAddress: String? = nil, operationTimeout: Duration = .seconds(30),
            servicesGrace: Duration = .seconds(2), servicesQuietPeriod: Duration = .milliseconds(200),
            servicesSettleLimit: Duration = .seconds(10), hci: any KernelHCI = LibBluetoothKernelHCI(),
            logger: Logger = Logger(label: "airlink.bluez")
        ) {
            self.servicesQuietPeriod = servicesQuietPeriod
            self.servicesSettleLimit = servicesSettleLimit
            self.adapter = adapter
            self.busAddress = busAddress
            self.operationTimeout = operationTimeout
            self.servicesGrace = servicesGrace
            self.hci = hci
            self.logger = logger
        }
    }

    /// `bluez:hci0`.
    public let name: String
    /// The adapter in use, `hci0`.
    public let adapterName: String
    let adapterPath: String
    let configuration: Configuration
    let connection: DBusConnection
    let state: Mutex<BlueZTransportState>
    /// Every subscriber of ``events()``; events are emitted from the D-Bus loop, one thread, in order.
    let broadcaster = Broadcaster<TransportEvent>()
    var logger: Logger { configuration.logger }

    init(adapter: String, configuration: Configuration, connection: DBusConnection, owner: String) {
        adapterName = adapter
        adapterPath = BlueZPath.adapter(adapter)
        name = "bluez:" + adapter
        self.configuration = configuration
        self.connection = connection
        var initial = BlueZTransportState()
        initial.owner = owner
        state = Mutex(initial)
    }

    deinit {
        connection.close()
        broadcaster.finish()
    }

    /// The adapter's power state: off, on, or unavailable (adapter removed, BlueZ or the bus gone).
    public var adapterState: AdapterState {
        get async { state.withLock { currentAdapterState($0) } }
    }

    func currentAdapterState(_ state: BlueZTransportState) -> AdapterState {
        if let lost = state.lost { return .unavailable(lost) }
        guard let adapter = state.tree.properties(adapterPath, BlueZInterface.adapter) else {
            return .unavailable("BlueZ has no adapter \(adapterName) any more")
        }
        return adapter["Powered"]?.bool == true ? .poweredOn : .poweredOff
    }

    /// The D-Bus connection's own thread as a task executor: the default executor of work on BlueZ.
    ///
    /// A call from an ordinary task costs one thread hop: the D-Bus thread reads the reply and resumes the
    /// task on the cooperative pool. A task that prefers this executor runs on the D-Bus thread itself, so
    /// the reply resumes it there without waking another thread (Docs/Performance.md). `AirlinkTransports`
    /// makes it the default on `bluez`: `OpenedTransport.run` runs work on it and the environment's executor
    /// is this one, so the layers' own tasks use it too.
    ///
    /// App code on it cannot hold up the transport: the D-Bus thread runs such jobs outside its role of
    /// serving the connection, and when one runs longer than 10 ms (a blocking call, a long computation), a
    /// standby thread serves the connection until it returns, and the other tasks' jobs go to the global
    /// executor meanwhile. A reply or deadline is then late by 20 ms at most. When the transport closes, the
    /// tasks go on on the global executor (Docs/adr/0011-bluez-default-executor.md).
    ///
    /// ```swift
    /// let services = try await withTaskExecutorPreference(bluez.taskExecutor) {
    ///     try await bluez.discoverServices(id, uuids: nil)  // the app's work with the transport
    /// }
    /// ```
    public var taskExecutor: any TaskExecutor { connection.taskExecutor }

    /// A new stream of the transport's events; it ends when the transport is closed, and when BlueZ or
    /// the bus goes away (after ``/AirlinkCore/TransportEvent/adapterStateChanged(_:)`` says so).
    public func events() -> TransportEvents { broadcaster.subscribe() }

    /// Closes the D-Bus connection and ends every event stream; pending operations fail.
    public func close() {
        state.withLock { $0.closed = true }
        connection.close()
        broadcaster.finish()
    }

    /// Runs what a state change asked for: events first (in order), then the rest.
    func run(_ effects: BlueZEffects) {
        broadcaster.yield(contentsOf: effects.events)
        for work in effects.work { work() }
    }

    /// Changes the state under the lock, then runs the effects.
    func update(_ body: (inout BlueZTransportState, inout BlueZEffects) -> Void) {
        let effects = state.withLock { state in
            var effects = BlueZEffects()
            body(&state, &effects)
            return effects
        }
        run(effects)
    }

    /// The device's object path.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/deviceNotFound`` for an opaque identifier (BlueZ names devices by
    ///   address).
    func devicePath(_ device: DeviceID) throws(AirlinkError) -> String {
        guard let address = device.address else {
            throw AirlinkError(
                .deviceNotFound, "BlueZ identifies devices by address; \(device) has none", context: "\(device)")
        }
        return BlueZPath.device(address, adapter: adapterName)
    }

    /// Throws unless BlueZ is reachable, the transport open and the adapter on.
    func checkUsable(_ state: BlueZTransportState, context: String) throws(AirlinkError) {
        if state.closed {
            throw AirlinkError(.transportUnavailable, "the transport was closed; open a new one", context: context)
        }
        switch currentAdapterState(state) {
        case .poweredOn: return
        case .poweredOff:
            throw AirlinkError(
                .adapterPoweredOff, "adapter \(adapterName) is powered off: run `bluetoothctl power on`",
                context: context)
        case .unavailable(let why):
            throw AirlinkError(.transportUnavailable, "BlueZ is not available: \(why)", context: context)
        }
    }

    /// Calls a method of the adapter (or another BlueZ object) once the transport is usable, and maps
    /// its failure; the call fails at once when the adapter goes off or BlueZ goes away.
    func callBlueZ(
        path: String, interface: String, member: String, arguments: [DBusValue] = [], operation: BlueZOperation,
        context: String
    ) async throws(AirlinkError) -> DBusMessage {
        try await pendingCall(context: context, operation: operation) {
            (state) throws(AirlinkError) -> (DBusMessage, String) in
            try checkUsable(state, context: context)
            do throws(DBusError) {
                let message = try DBusMessage.methodCall(
                    destination: BlueZInterface.service, path: path, interface: interface, member: member,
                    arguments: arguments)
                return (message, adapterPath)
            } catch {
                throw BlueZErrorMapping.map(error, operation: operation, context: context)
            }
        }
    }
}
