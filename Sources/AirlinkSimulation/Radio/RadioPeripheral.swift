import AirlinkCore

/// One simulated peripheral on the air: its firmware (values, state, behaviours), its advertising and
/// its side of every link.
///
/// Guarded by the world's lock. The authoritative values live in ``database``; each link's
/// ``ATTServer`` keeps a copy that is updated whenever a value changes, with its own CCCDs.
final class RadioPeripheral: RadioConfined, @unchecked Sendable {
    // @unchecked: every mutable field is used under `world.lock`. Debug builds assert it in each internal member
    // that touches one (``RadioConfined/assertConfined(_:file:line:)``); another type's direct access to a field is
    // not checked by itself.
    // `@exclusivity(unchecked)` on the fields every request touches: as on ``Link``.
    unowned let world: RadioWorld
    let spec: PeripheralSpec
    /// When it was added: its timeline's times count from here.
    let addedAt: VirtualInstant
    /// The id as traces and error messages print it. Formatted when a trace line or an error
    /// needs it, never when the peripheral is added: formatting it was 7,800 instructions of the
    /// 144,000 an advertiser cost in a scan (Docs/Performance.md, "What the hot paths rely on").
    var idText: String { spec.id.description }

    var services: [Service]
    /// The checked definition whose table is not built yet (``layOut()``).
    private var pendingLayout: AttributeTableBuilder?
    @exclusivity(unchecked) private var laidOutDatabase: AttributeDatabase?
    @exclusivity(unchecked) private var indexedCharacteristics: [Entry] = []
    @exclusivity(unchecked) private var updateSlots: [UpdateSlot] = []
    @exclusivity(unchecked) var stateStorage: PeripheralState
    @exclusivity(unchecked) var position: Position
    @exclusivity(unchecked) var isOutOfRange = false
    @exclusivity(unchecked) var isAdvertisingEnabled: Bool
    @exclusivity(unchecked) var links: [Link] = []
    @exclusivity(unchecked) var pendingConnects: [ConnectAttempt] = []
    var connectFailures: [ConnectFailure] = []
    @exclusivity(unchecked) var attFaults: [ATTFaultRule] = []
    /// The bonded centrals' subscriptions and caching state between connections, in the order they first left
    /// (``RadioPeripheral/clientDisconnected(_:)``; only when the spec bonds with centrals).
    var rememberedClients: [RememberedClient] = []
    /// The centrals it paired and bonded with, in the order they first bonded (Security/RadioPeripheral+Bonds.swift).
    var bonds: [(central: DeviceID, bond: PairingResult)] = []
    @exclusivity(unchecked) var updateTimerAt: VirtualInstant?
    @exclusivity(unchecked) var isCatchingUp = false
    /// The app's peripheral role when this model stands for an app (``VirtualPeripheralRole``).
    weak var host: VirtualPeripheralRole?

    @exclusivity(unchecked) var observers = 0
    @exclusivity(unchecked) var advertisingGeneration = 0
    @exclusivity(unchecked) var advertisingScheduled = false
    let advertisement: Advertisement?
    /// The spec's advertising interval, `nil` if it does not advertise (read at every advertising event).
    let advertisingInterval: VirtualDuration?
    /// Whether its advertising accepts connections (read at every advertising event).
    let isConnectable: Bool
    /// Whether it has an advertisement (tested without copying it, at every advertising event).
    let advertises: Bool
    /// The advertisement's AD structures as sent (empty if the peripheral does not advertise).
    let advertisingData: [UInt8]
    /// What it answers an active scanner's scan request with, if anything (decoded from its bytes, as
    /// a scanner receives it).
    let scanResponse: Advertisement?

    /// A characteristic of the current database, with its value handle.
    struct Entry {
        var service: BluetoothUUID
        var spec: CharacteristicSpec
        var valueHandle: ATTHandle
    }

    /// A periodic update and when it is next due.
    struct UpdateSlot {
        var entryIndex: Int
        var updateIndex: Int
        var nextDue: VirtualInstant
        var period: VirtualDuration
    }

    /// A fault rule for incoming ATT requests.
    struct ATTFaultRule {
        enum Response {
            case error(ATTError)
            case noResponse
            case delay(VirtualDuration)
        }
        var operation: ATTOperation
        var response: Response
        var remaining: Int
    }

    /// A peripheral of `spec`, whose definition `layout` checked (its table is built at first use),
    /// advertising `advertisingData` (the spec's, as ``/AirlinkCore/PeripheralSpec/validatedAdvertisingData()``
    /// encoded it).
    init(
        world: RadioWorld, spec: PeripheralSpec, layout: AttributeTableBuilder, advertisingData bytes: [UInt8]
    ) throws(AirlinkError) {
        self.world = world
        self.spec = spec
        self.addedAt = world.now
        self.services = spec.services
        self.pendingLayout = layout
        self.stateStorage = spec.initialState
        self.position = spec.position
        self.isAdvertisingEnabled = spec.advertising != nil
        self.advertisingInterval = spec.advertising.map { VirtualDuration($0.interval) }
        self.isConnectable = spec.advertising?.isConnectable ?? false
        if let advertising = spec.advertising {
            self.advertisement = try Advertisement(decoding: bytes, isConnectable: advertising.isConnectable)
            self.advertises = true
            self.advertisingData = bytes
            if advertising.scanResponse != nil {
                var response = try Advertisement(
                    decoding: advertising.scanResponseData(), isConnectable: advertising.isConnectable)
                response.isScanResponse = true
                self.scanResponse = response
            } else {
                self.scanResponse = nil
            }
        } else {
            self.advertisement = nil
            self.advertises = false
            self.advertisingData = []
            self.scanResponse = nil
        }
    }

    var id: DeviceID { spec.id }

    // MARK: The attribute table, built at first use

    /// The attribute table with the authoritative values. Built at its first use (a connection, a
    /// value read or stored, a periodic update), so that a crowd of advertisers nobody connects to
    /// never builds one; its definition was checked when the peripheral was added.
    var database: AttributeDatabase {
        get {
            assertConfined()
            layOut()
            return laidOutDatabase!
        }
        _modify {
            assertConfined()
            layOut()
            yield &laidOutDatabase!
        }
        set {
            assertConfined()
            pendingLayout = nil
            laidOutDatabase = newValue
        }
    }

    /// The characteristics of the current database, with their value handles.
    var characteristics: [Entry] {
        get {
            assertConfined()
            layOut()
            return indexedCharacteristics
        }
        _modify {
            assertConfined()
            layOut()
            yield &indexedCharacteristics
        }
        set {
            assertConfined()
            indexedCharacteristics = newValue
        }
    }

    /// The periodic updates, each with its next due time.
    var updates: [UpdateSlot] {
        get {
            assertConfined()
            layOut()
            return updateSlots
        }
        _modify {
            assertConfined()
            layOut()
            yield &updateSlots
        }
        set {
            assertConfined()
            updateSlots = newValue
        }
    }

    /// Builds the table and indexes it, once: as if it had been built when the peripheral was added
    /// (updates fall due from ``addedAt``).
    private func layOut() {
        guard laidOutDatabase == nil, let layout = pendingLayout else { return }
        pendingLayout = nil
        laidOutDatabase = AttributeDatabase(checked: layout)
        indexCharacteristics(resetUpdates: true, from: addedAt)
    }

    /// Rebuilds ``characteristics`` from ``services`` and the database's handles; `resetUpdates`
    /// makes every periodic update fall due one period after `start` (by default now).
    func indexCharacteristics(resetUpdates: Bool, from start: VirtualInstant? = nil) {
        characteristics = []
        let laidOut = database.services
        for (index, service) in services.enumerated() where index + 2 < laidOut.count {
            // The database puts 0x1800 and 0x1801 first; defined services follow in order.
            let handles = laidOut[index + 2].handles
            var characteristicIndex = 0
            for attribute in database.attributes(in: handles) {
                guard case .characteristicValue = attribute.role, characteristicIndex < service.characteristics.count
                else { continue }
                characteristics.append(
                    Entry(
                        service: service.uuid, spec: service.characteristics[characteristicIndex],
                        valueHandle: attribute.handle))
                characteristicIndex += 1
            }
        }
        guard resetUpdates else { return }
        updates = []
        let now = start ?? world.now
        for (entryIndex, entry) in characteristics.enumerated() {
            for (updateIndex, update) in entry.spec.updates.enumerated() {
                let period = VirtualDuration(update.period)
                updates.append(
                    UpdateSlot(entryIndex: entryIndex, updateIndex: updateIndex, nextDue: now + period, period: period))
            }
        }
    }

    /// The entry for a characteristic UUID, optionally within a service.
    func entry(_ uuid: BluetoothUUID, in service: BluetoothUUID?) throws(AirlinkError) -> Entry {
        let all = characteristics
        return all[try entryIndex(uuid, in: service, among: all)]
    }

    /// The value handle of a characteristic, optionally within a service (a behaviour's read or
    /// write of a value: the entry is not copied).
    func valueHandle(of uuid: BluetoothUUID, in service: BluetoothUUID?) throws(AirlinkError) -> ATTHandle {
        let all = characteristics
        return all[try entryIndex(uuid, in: service, among: all)].valueHandle
    }

    /// The index of a characteristic's entry in `all`; entries are compared in place, not copied
    /// (each holds its characteristic's spec, behaviours included).
    private func entryIndex(_ uuid: BluetoothUUID, in service: BluetoothUUID?, among all: [Entry]) throws(AirlinkError)
        -> Int
    {
        var found: Int?
        for index in all.indices where all[index].spec.uuid == uuid && (service == nil || all[index].service == service)
        {
            if found != nil {
                throw AirlinkError(
                    .invalidArgument,
                    "peripheral \"\(spec.name)\" has characteristic \(uuid) in several services; name the service")
            }
            found = index
        }
        guard let found else {
            throw AirlinkError(
                .characteristicNotFound,
                "peripheral \"\(spec.name)\" has no characteristic \(uuid)\(service.map { " in service \($0)" } ?? "")")
        }
        return found
    }

    /// The entry whose value is at `handle`.
    func entry(valueHandle handle: ATTHandle) -> Entry? {
        let all = characteristics
        for index in all.indices where all[index].valueHandle == handle { return all[index] }
        return nil
    }

    /// The read behaviour of the characteristic whose value is at `handle`, taken without copying its
    /// entry (the spec's closures and all: about 300 instructions a read, Docs/Performance.md).
    func readBehaviour(valueHandle handle: ATTHandle) -> (
        @Sendable (any PeripheralContext) throws(ATTRefusal) -> [UInt8]
    )? {
        let all = characteristics
        for index in all.indices where all[index].valueHandle == handle { return all[index].spec.onRead }
        return nil
    }

    // MARK: Values

    /// Stores bytes for an attribute and brings every link's server up to date; `notify` sends them to
    /// subscribed centrals.
    ///
    /// - Throws: what the peripheral's own database refuses (no attribute at `handle`, a value over 512 bytes); a
    ///   link's server that refuses afterwards is traced with its reason, since the value is stored by then.
    func store(_ bytes: [UInt8], for handle: ATTHandle, notify: Bool) throws(AirlinkError) {
        assertConfined()
        try database.setValue(bytes, for: handle)
        for link in links {
            if notify {
                serve(link, handle) { server throws(AirlinkError) in try server.updateValue(bytes, for: handle) }
            } else {
                serve(link, handle) { server throws(AirlinkError) in
                    try server.database.setValue(bytes, for: handle)
                    return []
                }
            }
        }
    }

    /// Sends bytes to the subscribers of the characteristic at `handle` without storing them.
    func send(_ bytes: [UInt8], for handle: ATTHandle) {
        assertConfined()
        for link in links {
            let bits = link.server.clientConfiguration(forValue: handle)
            if bits & 0x0001 != 0 {
                serve(link, handle) { server throws(AirlinkError) in try server.notify(bytes, for: handle) }
            }
            if bits & 0x0002 != 0 {
                serve(link, handle) { server throws(AirlinkError) in try server.indicate(bytes, for: handle) }
            }
        }
    }

    /// Has one link's server take a value update and performs what it asks; an update the server refuses
    /// (a characteristic without the property its client subscribed with) is traced with the reason, and
    /// the other links are served all the same.
    private func serve(
        _ link: Link, _ handle: ATTHandle, _ update: (inout ATTServer) throws(AirlinkError) -> [ATTServer.Action]
    ) {
        do {
            link.performServerActions(try update(&link.server))
        } catch {
            world.record("peripheral", "\(link.central.tracePrefix)\(idText) \(handle) not sent: \(error.message)")
        }
    }

    // MARK: Periodic updates

    /// Runs every periodic update due by now, in time order, then arms the next timer if a central
    /// is connected (with nobody connected, updates are caught up lazily, so an idle world stays idle).
    ///
    /// Called on every request the peripheral receives and every value a behaviour reads, so the
    /// common case (nothing due, the timer armed) returns after one comparison, without allocating.
    func catchUpUpdates() {
        assertConfined()
        guard !isCatchingUp, let next = nextUpdateDue else { return }
        let now = world.now
        if next > now, links.isEmpty || updateTimerAt.map({ $0 <= next && $0 > now }) == true { return }
        isCatchingUp = true
        defer { isCatchingUp = false }
        while let index = updates.indices.min(by: { updates[$0].nextDue < updates[$1].nextDue }),
            updates[index].nextDue <= now
        {
            let slot = updates[index]
            updates[index].nextDue += slot.period
            let entry = characteristics[slot.entryIndex]
            let update = entry.spec.updates[slot.updateIndex]
            let current = database[entry.valueHandle]?.value ?? []
            do {
                if let next = try update.transform(current, context), next != current {
                    try store(next, for: entry.valueHandle, notify: true)
                }
            } catch {
                world.record("peripheral", "\(id) update of \(entry.spec.uuid) failed: \(error.message)")
            }
        }
        armUpdateTimer()
    }

    /// Arms one timer for the next due update while a link is up.
    func armUpdateTimer() {
        assertConfined()
        guard !links.isEmpty, let next = nextUpdateDue else { return }
        if let armed = updateTimerAt, armed <= next, armed > world.now { return }
        updateTimerAt = next
        arm(.updates(due: next), at: next)
    }

    /// When the next periodic update is due, if the peripheral has any.
    var nextUpdateDue: VirtualInstant? {
        var next: VirtualInstant?
        for slot in updates where next == nil || slot.nextDue < next! { next = slot.nextDue }
        return next
    }

    // MARK: Timeline

    /// Schedules the spec's timeline from the moment the peripheral was added.
    func startTimeline() {
        for entry in spec.timeline {
            let time = addedAt + VirtualDuration(entry.time)
            world.schedule(at: time) { [self] in
                catchUpUpdates()
                world.record("peripheral", "\(id) timeline \(entry.action.name)")
                perform(entry.action)
            }
        }
    }

    func perform(_ action: TimelineAction) {
        assertConfined()
        switch action {
        case .run(let body): body(context)
        case .setBytes(let bytes, let characteristic, let service):
            do {
                try context.setBytes(bytes, of: characteristic, in: service)
            } catch {
                world.record("peripheral", "\(id) timeline setValue failed: \(error.message)")
            }
        case .changeDatabase(let services): changeDatabase(services)
        case .reset: reset()
        case .move(let position): move(to: position)
        case .stopAdvertising: isAdvertisingEnabled = false
        case .startAdvertising:
            isAdvertisingEnabled = spec.advertising != nil
        }
    }

    /// The context handed to behaviours: the model itself.
    var context: any PeripheralContext { self }
}
