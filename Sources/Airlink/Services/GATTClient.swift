@_spi(AirlinkInternals) import AirlinkCore
import Logging
import Synchronization

/// One device's GATT client state, shared by its ``DeviceServices`` and ``DeviceService``s: the
/// link (up or down), the discovery caches, the notification routes, the subscriptions the app
/// enabled, and the gate that serializes requests.
///
/// It outlives links: a reconnection binds the same object to the new link (``linkUp(_:)``), so
/// the managers an app holds keep working. Caches belong to one link and one database: they are
/// dropped when the link comes up or down and when the device reports Service Changed, because
/// handles may differ (Core Spec Vol 3, Part G, 2.5.2), and are filled again on next use. With
/// database caching (a registry, and ``DatabaseCaching`` not `off`), the caches are saved in the
/// registry when the link goes down and installed again when a later link's Database Hash says they
/// still hold (GATTClient+DatabaseCache.swift).
final class GATTClient: Sendable {
    struct Route {
        let service: BluetoothUUID
        let characteristic: BluetoothUUID
        let registry: ObserverRegistry
    }

    struct Subscription: Equatable {
        let service: BluetoothUUID
        let characteristic: BluetoothUUID
        var mode: NotificationMode
    }

    struct ServiceCache {
        var service: GATTService
        var characteristics: [BluetoothUUID: GATTCharacteristic] = [:]
        var allCharacteristics: [GATTCharacteristic]?
        var descriptors: [ATTHandle: [GATTDescriptor]] = [:]
    }

    struct State {
        var info: LinkInfo?
        var downError: AirlinkError?
        var generation = 0
        var services: [BluetoothUUID: ServiceCache] = [:]
        var allServices: [GATTService]?
        var routes: [ATTHandle: Route] = [:]
        var registries: [BluetoothUUID: ObserverRegistry] = [:]
        var subscriptions: [Subscription] = []
        /// The app's calls that set a characteristic's notifications and have not returned, by service and
        /// characteristic: a restore leaves those characteristics to the app's call (looked up only).
        var changing: [CharacteristicKey: Int] = [:]
        /// Characteristics a restore left to an app's call under way, with the generation of that restore (looked up
        /// only): if the last such call fails in the same generation, the app's earlier choice is restored after it.
        var skipped: [CharacteristicKey: Int] = [:]
        /// The Database Hash read as the link came up (`nil`: none served, or not read), valid while
        /// ``generation`` is still ``hashGeneration``.
        var hash: [UInt8]?
        var hashGeneration: Int?
        /// Service Changed arrived while no link was up (a bonded device tells as the link comes up, before
        /// the layers bind to it): the cached database must not be reused.
        var changedWhileDown = false
        /// Whether the current link's caches came from the registry's cache, and on what trust; `nil` otherwise.
        var reusedCache: DatabaseCacheTrust?
        /// Discoveries (or a change of the database) since the registry's cache was last saved: the next
        /// operation to end, or the link going down, saves it.
        var unsaved = false

        mutating func dropCaches() {
            generation += 1
            reusedCache = nil
            services.removeAll()
            allServices = nil
            routes.removeAll()
        }

        /// Drops the caches of the services whose handles overlap `range` (Service Changed's affected range,
        /// Core Spec Vol 3, Part G, 7.1: handles outside it did not change) and the list of all services (one
        /// may have been added in the range); the others keep their characteristics and routes.
        mutating func dropCaches(touching range: ClosedRange<ATTHandle>) {
            generation += 1
            reusedCache = nil
            allServices = nil
            let affected = services.filter { $0.value.service.handles.overlaps(range) }.map(\.key)
            for uuid in affected { services[uuid] = nil }
            routes = routes.filter { !affected.contains($0.value.service) && !range.contains($0.key) }
        }

        /// Counts down one of the app's calls that change `key`'s notifications, which has returned.
        mutating func endChange(of key: CharacteristicKey) {
            guard let count = changing[key] else { return }
            changing[key] = count > 1 ? count - 1 : nil
        }
    }

    let device: DeviceID
    let transport: any Transport
    let environment: AirlinkEnvironment
    let bus: EventBus
    let adapter: AdapterMonitor
    let gate = OperationGate()
    /// How long a GATT operation may take from the moment the app issued it, waiting for its turn
    /// included: ATT's transaction timeout (Core Spec Vol 3, Part F, 3.3.3).
    static let operationTimeout: Duration = .seconds(30)
    let capacity: Int
    /// Saves connection records, when the device manager has a registry.
    let recorder: ConnectionRecorder?
    let logger: Logger
    let observerIDs = ObserverIDs()
    let state = Mutex(State())
    /// Whether discovered databases are cached in the registry (``DatabaseCaching`` other than `off`, and a
    /// recorder); `off` otherwise.
    let caching: DatabaseCaching
    /// The device's pairing: the policy, the pairing under way, the bond.
    let security: LinkSecurity

    init(
        device: DeviceID, transport: any Transport, environment: AirlinkEnvironment, bus: EventBus,
        adapter: AdapterMonitor, capacity: Int, recorder: ConnectionRecorder? = nil, caching: DatabaseCaching = .off
    ) {
        self.recorder = recorder
        self.caching = recorder == nil ? .off : caching
        self.device = device
        self.transport = transport
        self.environment = environment
        self.bus = bus
        self.adapter = adapter
        self.capacity = capacity
        var logger = environment.logger
        logger[metadataKey: "device"] = "\(device)"
        self.logger = logger
        self.security = LinkSecurity(
            device: device, transport: transport, environment: environment, bus: bus, recorder: recorder)
    }

    // MARK: The link

    /// The link's parameters, or `nil` while it is down.
    var info: LinkInfo? { state.withLock { $0.info } }

    /// Binds to a new link; checks the cached database (with caching), then restores the notifications the
    /// app had enabled.
    func linkUp(_ info: LinkInfo) {
        let (restore, generation, changedWhileDown) = state.withLock { state -> (Bool, Int, Bool) in
            state.dropCaches()
            state.info = info
            state.downError = nil
            defer { state.changedWhileDown = false }
            return (!state.subscriptions.isEmpty, state.generation, state.changedWhileDown)
        }
        guard caching != .off else {
            if restore { environment.spawn { await self.restoreSubscriptions() } }
            return
        }
        // The check takes the first turn on the link, before any operation the app issues from now on.
        let ticket = gate.enter()
        environment.spawn {
            await self.checkCachedDatabase(ticket: ticket, generation: generation, changedWhileDown: changedWhileDown)
            if restore { await self.restoreSubscriptions() }
        }
    }

    /// Unbinds from a link that is gone; operations waiting their turn fail with `error` at once.
    func linkDown(_ error: AirlinkError, keepSubscriptions: Bool) {
        if caching != .off { saveCachedDatabaseIfChanged() }
        state.withLock { state in
            state.dropCaches()
            state.info = nil
            state.downError = error
            if !keepSubscriptions { state.subscriptions.removeAll() }
        }
        gate.failWaiters(with: error)
    }

    /// The device's database changed: drop the cached handles (those of the services `range` touches, when the
    /// transport knows the range Service Changed carried and a link is up; every one otherwise), and restore
    /// notifications.
    ///
    /// - Parameters:
    ///   - reason: how the layers learnt it, reported as ``/AirlinkCore/ServicesEvent/databaseChanged(_:)`` when
    /// databases
    ///     are cached.
    ///   - range: the affected handle range, or `nil` when not known.
    func servicesChanged(_ reason: DatabaseChangeReason = .serviceChanged, range: ClosedRange<ATTHandle>? = nil) {
        let restore = state.withLock { state -> Bool in
            if let range, state.info != nil { state.dropCaches(touching: range) } else { state.dropCaches() }
            state.unsaved = true
            if state.info == nil { state.changedWhileDown = true }
            return state.info != nil && !state.subscriptions.isEmpty
        }
        bus.publish(.services(device, .changed))
        if caching != .off { bus.publish(.services(device, .databaseChanged(reason))) }
        if restore { environment.spawn { await self.restoreSubscriptions() } }
    }

    /// Throws unless the link is up; returns the generation of its caches.
    func requireLink(_ operation: @autoclosure () -> String) throws(AirlinkError) -> Int {
        let (generation, up, down) = state.withLock { ($0.generation, $0.info != nil, $0.downError) }
        if up { return generation }
        let why = down?.code == .linkLost ? " (the link was lost; wait for the reconnected event)" : ""
        throw AirlinkError(
            .notConnected, "cannot \(operation()): \(device) is not connected\(why); connect first",
            cause: down.map { .underlying($0) })
    }

    /// Runs one GATT operation in the device's turn: the adapter must be on and the link up.
    ///
    /// The operation's deadline, ``operationTimeout``, runs from this call: the operation fails with
    /// ``/AirlinkCore/AirlinkError/Code/timeout`` when it passes, whether it is still waiting for its turn
    /// or under way (then it is cancelled), discovery on a cold cache included. One that gets its turn
    /// at once and makes a single transport call runs without a timer of its own (the common path
    /// stays free of tasks): the transport bounds that call by the same 30 s. One that must make more
    /// (``requireDeadline(_:)`` tells it) runs again, still in its turn, under its deadline as a whole.
    ///
    /// - Parameters:
    ///   - operation: what is done, for messages and context: `read 2A19 in 180F`.
    ///   - body: the operation, given its ``Turn``; may be run twice, the first time stopping before
    ///     any transport call.
    ///   - service: the service concerned, for the log's metadata.
    ///   - characteristic: the characteristic concerned, for the log's metadata.
    ///   - retried: whether this is the retry after Database Out Of Sync: with database caching, an operation
    ///     the device answers 0x12 runs once more, on rediscovered handles.
    nonisolated(nonsending) func perform<Value: Sendable>(
        _ operation: @autoclosure @Sendable () -> String, service: BluetoothUUID? = nil,
        characteristic: BluetoothUUID? = nil, retried: Bool = false,
        _ body: nonisolated(nonsending) @Sendable (_ turn: Turn) async throws(AirlinkError) -> Value
    ) async throws(AirlinkError) -> Value {
        let value = try await performInTurn(
            operation(), service: service, characteristic: characteristic, retried: retried, body)
        // What the operation discovered is cached once the client is idle, so that a process that ends connected
        // keeps it, and a run of operations (a whole database discovered one service at a time) saves it once.
        if caching != .off { saveCachedDatabaseWhenIdle() }
        return value
    }

    /// ``perform(_:service:characteristic:retried:_:)`` without saving the discovered database.
    nonisolated(nonsending) private func performInTurn<Value: Sendable>(
        _ operation: @autoclosure @Sendable () -> String, service: BluetoothUUID?, characteristic: BluetoothUUID?,
        retried: Bool, _ body: nonisolated(nonsending) @Sendable (_ turn: Turn) async throws(AirlinkError) -> Value
    ) async throws(AirlinkError) -> Value {
        // `operation` is described only when needed (an error, a trace-level log): building
        // descriptions of 128-bit UUIDs on every request would cost more than the request.
        logger.trace("\(operation())", metadata: Self.metadata(service, characteristic))
        let issued = environment.clock.now
        // The adapter's known state is checked in line: every asynchronous call on this path costs
        // task switches, a measurable part of a read (Docs/Performance.md).
        if adapter.known != .poweredOn { try await adapter.requirePoweredOn("\(operation()) on \(device)") }
        _ = try requireLink(operation())
        do throws(AirlinkError) {
            let ticket = gate.enter()
            guard case .queued = ticket else {
                // The turn is ours at once (`gate.run` would not wait): run in it directly.
                defer { gate.release() }
                do throws(AirlinkError) {
                    return try await body(Turn(generation: try requireLink(operation()), bounded: false))
                } catch {
                    guard error == Self.needsDeadline else { throw error }
                }
                // Several calls: the operation runs again, under its deadline.
                return try await OperationDeadline(environment: environment, issued: issued).run(
                    "\(operation()) on \(device)", timeout: Self.operationTimeout
                ) { () async throws(AirlinkError) -> Value in
                    try await body(Turn(generation: try requireLink(operation()), bounded: true))
                }
            }
            return try await OperationDeadline(environment: environment, issued: issued).run(
                "\(operation()) on \(device)", timeout: Self.operationTimeout
            ) { () async throws(AirlinkError) -> Value in
                try await gate.run(ticket) { () async throws(AirlinkError) -> Value in
                    try await body(Turn(generation: try requireLink(operation()), bounded: true))
                }
            }
        } catch {
            logger.debug("\(operation()) failed: \(error)", metadata: Self.metadata(service, characteristic))
            if caching != .off, !retried, error.attError == .databaseOutOfSync {
                // Rediscover and retry once: the device serves the next request (Core Spec Vol 3, Part G, 2.5.2.1).
                servicesChanged(.outOfSync)
                return try await perform(
                    operation(), service: service, characteristic: characteristic, retried: true, body)
            }
            if !retried, Self.needsSecurity(error), case let policy = security.policy, policy.pairsWhenRefused {
                // Pair (or encrypt with the bond) and retry once, as mobile stacks do.
                do throws(AirlinkError) {
                    _ = try await pair(features: policy.features, agent: policy.agent)
                } catch let failure {
                    throw failure.with(context: "\(operation()) on \(device) was refused (\(error.message)) and paired")
                }
                return try await perform(
                    operation(), service: service, characteristic: characteristic, retried: true, body)
            }
            throw insufficientSecurity(outOfSync(error)).with(context: "\(operation()) on \(device)")
        }
    }

    private static func metadata(_ service: BluetoothUUID?, _ characteristic: BluetoothUUID?) -> Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        if let service { metadata["service"] = "\(service)" }
        if let characteristic { metadata["characteristic"] = "\(characteristic)" }
        return metadata
    }

    /// Refreshes the link's parameters from the transport (the MTU may have grown since connecting).
    ///
    /// Call inside ``perform(_:service:characteristic:_:)``, before the operation's own transport call.
    func refreshLinkInfo(turn: Turn) async throws(AirlinkError) -> LinkInfo {
        try requireDeadline(turn)
        let info = try await transport.linkInfo(device)
        state.withLock { state in if state.generation == turn.generation, state.info != nil { state.info = info } }
        return info
    }

    /// The longest value a write of `type` can carry on the current link.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/notConnected`` while the link is down.
    func maximumWriteLength(for type: WriteType) throws(AirlinkError) -> Int {
        _ = try requireLink("compute the maximum write length")
        guard let info else { return 0 }
        switch type {
        case .withResponse: return info.maximumWriteWithResponseLength
        case .withoutResponse: return info.maximumWriteWithoutResponseLength
        }
    }

    // MARK: Registries and routes

    /// The observer registry of a service, created on first use.
    func registry(for service: BluetoothUUID) -> ObserverRegistry {
        state.withLock { state in
            if let registry = state.registries[service] { return registry }
            let registry = ObserverRegistry(
                device: device, service: service, capacity: capacity, environment: environment, bus: bus,
                ids: observerIDs)
            state.registries[service] = registry
            return registry
        }
    }

    /// Routes a notification to the observers of its characteristic.
    func deliver(handle: ATTHandle, value: [UInt8]) {
        guard let route = state.withLock({ $0.routes[handle] }) else {
            logger.trace("a value arrived for handle \(handle), which no observed characteristic uses")
            return
        }
        route.registry.deliver(value, characteristic: route.characteristic)
    }

    /// Ends the value streams of every service (the link is gone and no reconnection follows), in
    /// the order they were opened across all services; closure observers and subscriptions stay for a
    /// later `connect`.
    func endStreams() {
        let registries = state.withLock { Array($0.registries.values) }
        let streams = registries.flatMap { $0.detachStreams() }.sorted { $0.id < $1.id }
        for stream in streams { stream.channel.finish() }
    }

    /// Ends every observer's stream (the device manager shuts down), in the order the streams were
    /// opened across all services, so the order the app sees them end is the same in every run.
    func finish() {
        let registries = state.withLock { Array($0.registries.values) }
        let streams = registries.flatMap { $0.close() }.sorted { $0.id < $1.id }
        for stream in streams { stream.channel?.finish() }
    }
}
