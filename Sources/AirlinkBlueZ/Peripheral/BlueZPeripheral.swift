import AirlinkCore
import Synchronization

/// The peripheral role on BlueZ: the app's database exported on D-Bus and registered with
/// `org.bluez.GattManager1.RegisterApplication`, its advertisement with
/// `org.bluez.LEAdvertisingManager1.RegisterAdvertisement` (BlueZ doc/gatt-api.rst, doc/advertising-api.rst).
///
/// bluetoothd then serves the database to centrals and calls the exported objects' `ReadValue`,
/// `WriteValue`, `StartNotify` and `StopNotify`; see ``/AirlinkCore/PeripheralTransport`` for the contract.
/// Centrals connecting and leaving are read from the adapter's `Device1` objects
/// (`BlueZCentralTracker`). BlueZ does not say which central subscribes: subscription events name
/// the caller (`id:bluez:<bus name>`, bluetoothd itself).
///
/// The peripheral ends when it is closed (``close()``) or released, when its bus connection closes,
/// when bluetoothd leaves the bus or when its adapter is removed: every stream of
/// ``peripheralEvents()`` then finishes, calls waiting for BlueZ fail at once, and later calls fail,
/// with ``/AirlinkCore/AirlinkError/Code/transportUnavailable`` naming why.
public final class BlueZPeripheral: PeripheralTransport, Sendable {
    let connection: DBusConnection
    let adapterPath: String
    let root: String
    let context: BlueZPeripheralContext
    let environment: AirlinkEnvironment
    let state = Mutex(State())
    /// The adapter's connected devices, from BlueZ's signals.
    let centrals: Mutex<BlueZCentralTracker>
    /// How long a registration call may wait for BlueZ.
    let operationTimeout: Duration
    /// Every subscriber of ``peripheralEvents()``; finished when the peripheral ends.
    let broadcaster = Broadcaster<PeripheralEvent>()

    struct State {
        /// Why the peripheral ended, or `nil` while it can be used.
        var ended: String?
        var application: BlueZGATTApplication?
        var exported = false
        var registered = false
        var advertising = false
        /// Whether the adapter's devices are followed (``watchCentrals()``).
        var watchingCentrals = false
        /// The agent exported for ``setSecurity(_:)``, once set.
        var agent: BlueZPairingAgent?
    }

    /// `bluez:hci0`.
    public let name: String

    /// Connects to the system bus (or `busAddress`) for the adapter `adapter`.
    ///
    /// - Parameters:
    ///   - adapter: the adapter's name (`hci0`).
    ///   - busAddress: a bus address, for tests against the fake BlueZ; `nil` for the system bus.
    ///   - environment: the clock, random source and logger behaviours use.
    ///   - operationTimeout: how long each registration call may wait for BlueZ (it then fails with
    ///     ``/AirlinkCore/AirlinkError/Code/timeout``).
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/transportUnavailable`` when the bus cannot be reached.
    public init(
        adapter: String = "hci0", busAddress: String? = nil, environment: AirlinkEnvironment,
        operationTimeout: Duration = .seconds(10)
    ) throws(AirlinkError) {
        self.operationTimeout = operationTimeout
        let bus: DBusConnection.Bus = busAddress.map { .address($0) } ?? .system
        do {
            connection = try DBusConnection(bus: bus, timeout: min(operationTimeout, DBusConnection.openTimeout))
        } catch {
            throw error.openingError(bus, context: "opening bluez:\(adapter)")
        }
        name = "bluez:\(adapter)"
        adapterPath = "/org/bluez/\(adapter)"
        root = "/org/airlink/peripheral/\(adapter)"
        self.environment = environment
        centrals = Mutex(BlueZCentralTracker(adapterPath: "/org/bluez/\(adapter)"))
        context = BlueZPeripheralContext(
            // try?: DeviceID(opaque:) refuses only an empty identifier
            id: (try? DeviceID(opaque: "bluez:\(adapter)")) ?? "id:bluez", environment: environment)
        watchLifetime()
    }

    deinit { end("the peripheral was released") }

    /// The adapter, as an opaque id (`id:bluez:hci0`): its address is BlueZ's to choose.
    public var peripheralAddress: DeviceID { context.id }

    /// The unique bus name bluetoothd calls the exported objects at.
    package var busName: String { connection.uniqueName }

    /// The path of the exported application (the ObjectManager).
    package var applicationPath: String { root }

    /// A new stream of subscription changes; it finishes when the peripheral ends (finished at once
    /// if it has).
    public func peripheralEvents() -> EventStream<PeripheralEvent> { broadcaster.subscribe() }

    /// Tells every subscriber what a central did.
    func report(_ event: PeripheralEvent) { broadcaster.yield(event) }

    /// Exports the database and registers it with GattManager1.
    public func publish(name: String, services: [Service]) async throws(AirlinkError) {
        try checkNotEnded("publish \(name)")
        var spec = PeripheralSpec(name: name, id: "C0:00:00:00:00:00") {}
        spec.services = services
        try spec.validate()
        await unregisterApplication()
        let (connection, logger) = (self.connection, environment.logger)
        let application = BlueZGATTApplication(
            root: root, name: name, services: services, context: context,
            emit: { path, interface, member, arguments in
                do {
                    try connection.emitSignal(path: path, interface: interface, member: member, arguments: arguments)
                } catch {
                    // Centrals do not hear this change; the value itself is stored and read as it is.
                    logger.warning("emitting \(member) of \(path) failed: \(error)")
                }
            },
            report: { [weak self] event in self?.report(event) })
        let needsExport = state.withLock { state in
            state.application = application
            defer { state.exported = true }
            return !state.exported
        }
        context.attach(application)
        if needsExport {
            do {
                try connection.export(root) { [weak self] message in
                    guard let application = self?.state.withLock({ $0.application }) else {
                        return .error(name: "org.freedesktop.DBus.Error.UnknownObject", message: "nothing is published")
                    }
                    return application.handle(message)
                }
            } catch {
                throw AirlinkError(.transportUnavailable, "cannot export the GATT application: \(error)")
            }
        }
        if !state.withLock({ $0.watchingCentrals }) { try await watchCentrals() }
        try await call(
            "org.bluez.GattManager1", "RegisterApplication",
            [.objectPath(root), .properties([])], what: "register the GATT application")
        state.withLock { $0.registered = true }
    }

    /// Unregisters the application and the advertisement.
    public func unpublish() async {
        await stopAdvertising()
        await unregisterApplication()
        state.withLock { $0.application = nil }
        context.attach(nil)
    }

    private func unregisterApplication() async {
        guard state.withLock({ $0.registered }) else { return }
        await callLoggingFailure(
            "org.bluez.GattManager1", "UnregisterApplication", [.objectPath(root)], what: "unregister")
        state.withLock { $0.registered = false }
    }

    /// Registers an advertisement (LEAdvertisement1 at `<root>/advertisement0`).
    public func startAdvertising(_ advertising: Advertising) async throws(AirlinkError) {
        guard let application = state.withLock({ $0.application }) else {
            throw AirlinkError(.invalidArgument, "nothing to advertise: publish a database first")
        }
        _ = try advertising.advertisingData()
        await stopAdvertising()
        application.state.withLock { $0.advertising = advertising }
        try await call(
            "org.bluez.LEAdvertisingManager1", "RegisterAdvertisement",
            [.objectPath(application.advertisementPath), .properties([])], what: "register the advertisement")
        state.withLock { $0.advertising = true }
    }

    /// Unregisters the advertisement.
    public func stopAdvertising() async {
        guard state.withLock({ $0.advertising }), let application = state.withLock({ $0.application }) else { return }
        await callLoggingFailure(
            "org.bluez.LEAdvertisingManager1", "UnregisterAdvertisement", [.objectPath(application.advertisementPath)],
            what: "unregister the advertisement")
        state.withLock { $0.advertising = false }
    }

    /// Stores a value and sends it to subscribers (PropertiesChanged of Value).
    public func updateValue(_ bytes: [UInt8], of characteristic: BluetoothUUID, in service: BluetoothUUID)
        async throws(AirlinkError)
    {
        try checkNotEnded("update \(characteristic)")
        try context.setBytes(bytes, of: characteristic, in: service)
    }

    /// Calls BlueZ at `path` (the adapter by default), waiting ``operationTimeout`` at most.
    func call(_ interface: String, _ member: String, _ arguments: [DBusValue], path: String? = nil, what: String)
        async throws(AirlinkError)
    {
        try checkNotEnded(what)
        do {
            _ = try await connection.call(
                destination: "org.bluez", path: path ?? adapterPath, interface: interface, member: member,
                arguments: arguments, timeout: operationTimeout)
        } catch {
            // The peripheral's end closed the connection: say why rather than how the call failed.
            try checkNotEnded(what)
            throw BlueZErrorMapping.map(error, operation: .other, context: "\(what) on \(adapterPath)")
        }
    }

    /// ``call(_:_:_:path:what:)`` for an undoing nobody awaits (unregistering on the way out or before
    /// registering again): a failure is logged with its reason, since BlueZ drops the registration with the
    /// connection or replaces it anyway.
    func callLoggingFailure(
        _ interface: String, _ member: String, _ arguments: [DBusValue], path: String? = nil, what: String
    ) async {
        do {
            try await call(interface, member, arguments, path: path, what: what)
        } catch {
            environment.logger.debug("\(what) failed: \(error)")
        }
    }
}
