import AirlinkCore
import AirlinkSimulation

/// A small, honest `Transport` for the layers' tests: a table of devices with GATT databases,
/// advertising on demand, scriptable failures, link drops and notifications, in a `Simulation`'s
/// virtual time.
///
/// It keeps the contract of `Transport.swift`: one stream per subscriber in observation order;
/// `.connected` before a link's notifications and `.disconnected` as its last event; power-off
/// reported after the links it dropped; every pending request fails with `linkLost` when a link
/// drops; `notConnected` and `adapterPoweredOff` at once; requests serialized per link (FIFO);
/// each request fails with `timeout` 30 s after its call, time in the queue included (ATT's
/// transaction timeout; the link stays up, as the contract allows); connect timeouts; cancellation,
/// also while a request waits for its turn; ``shutdown()`` ends every event stream. The transport
/// contract suite (Tests/AirlinkBlueZTests/Contract) runs on it as on the two real transports.
/// Handles come from `AttributeDatabase`, as the virtual radio's do; permissions and CCCDs are
/// enforced as an ATT server would.
package actor ScriptedTransport: Transport, RadioFixture {
    package struct Device {
        package var peripheral: TestPeripheral
        package var database: AttributeDatabase
        package var cccd: [ATTHandle: UInt16] = [:]
        package var connected = false
        package var connecting = false
        package var generation = 0
        package var refusals = 0
        package var answersConnects = true
        package var busy = false
        /// Requests waiting for the link's turn, first in first served (see `ScriptedTransport+Requests`).
        package var queue: [Turn] = []
        package var outstanding = 0
        package var failures: [AirlinkError] = []
        /// How many of the next requests the device never answers (they time out).
        package var ignored = 0
        package var advertiser: Task<Void, Never>?
        /// The link's security: raised by `pair`, back to level 1 on every new link.
        package var securityLevel = LinkSecurityLevel.none
        /// What the next pairings end with, first first; an empty list pairs Just Works and bonds.
        package var pairingOutcomes: [Result<PairingResult, AirlinkError>] = []
        /// The bond both sides keep after a bonded pairing: later pairings encrypt with it.
        package var bond: PairingResult?
        /// Whether a pairing with the device is under way.
        package var pairing = false
        /// How many pairings (and re-encryptions) the device answered.
        package var pairings = 0
    }

    package nonisolated let name = "scripted"
    let environment: AirlinkEnvironment
    let waits: InterruptibleWaits
    /// One channel per `events()` subscriber, as the virtual radio keeps them.
    private nonisolated let broadcaster = Broadcaster<TransportEvent>()
    private var poweredOn = true
    private var scan: ScanFilter?
    private var reported: Set<DeviceID> = []
    var devices: [DeviceID: Device] = [:]
    var latency: Duration = .zero
    private var log: [String] = []
    var maxOutstanding = 0
    /// The number of the last request that waited for its turn.
    var lastTicket = 0
    /// Whether requests are logged (off for benchmarks).
    private let logging: Bool

    package init(environment: AirlinkEnvironment, peripherals: [TestPeripheral], logging: Bool = true) throws {
        self.environment = environment
        self.waits = InterruptibleWaits(environment: environment)
        self.logging = logging
        for peripheral in peripherals {
            devices[peripheral.id] = Device(peripheral: peripheral, database: try AttributeDatabase(peripheral.gatt))
        }
    }

    // MARK: Transport: adapter, events, scanning

    package var adapterState: AdapterState { poweredOn ? .poweredOn : .poweredOff }

    package nonisolated func events() -> TransportEvents { broadcaster.subscribe() }

    package func startScan(_ filter: ScanFilter) async throws(AirlinkError) {
        try requirePower("scan")
        record(
            "startScan services=\(filter.services.map { $0.map(\.description).joined(separator: ",") } ?? "all") "
                + "duplicates=\(filter.allowDuplicates)"
        )
        if scan == nil { reported.removeAll() }
        scan = filter
    }

    package func stopScan() async {
        if scan != nil { record("stopScan") }
        scan = nil
    }

    // MARK: Transport: links

    package func connect(_ id: DeviceID, timeout: Duration) async throws(AirlinkError) -> LinkInfo {
        try requirePower("connect to \(id)")
        guard let device = devices[id] else {
            throw AirlinkError(.deviceNotFound, "no device \(id) is known to the transport; scan for it first")
        }
        if device.connected { return LinkInfo(mtu: device.peripheral.mtu) }
        if device.connecting {
            throw AirlinkError(.operationInProgress, "a connection attempt to \(id) is already under way")
        }
        record("connect \(id)")
        devices[id]!.connecting = true
        defer { devices[id]?.connecting = false }
        let latency = device.answersConnects ? device.peripheral.connectLatency : nil
        let waited = latency.map { min($0, timeout) } ?? timeout
        if let interruption = await waits.wait(id, .connect, for: waited) { throw interruption }
        guard let latency, latency <= timeout else {
            throw AirlinkError(
                .timeout, "connecting to \(id) took longer than \(timeout.text); the attempt was cancelled")
        }
        if devices[id]!.refusals > 0 {
            devices[id]!.refusals -= 1
            throw AirlinkError(
                .connectionFailed, "\(id) did not accept the connection",
                cause: .injected("failNextConnects(\(id))"))
        }
        devices[id]!.connected = true
        devices[id]!.generation += 1
        devices[id]!.cccd = [:]
        devices[id]!.securityLevel = .none
        emit(.connected(id))
        return LinkInfo(mtu: devices[id]!.peripheral.mtu)
    }

    package func disconnect(_ id: DeviceID) async {
        guard devices[id]?.connected == true else { return }
        record("disconnect \(id)")
        drop(id, reason: .localHostTerminated)
    }

    // MARK: Transport: GATT

    package func discoverServices(_ id: DeviceID, uuids: [BluetoothUUID]?) async throws(AirlinkError) -> [GATTService] {
        try await request(id, "discoverServices \(Self.list(uuids))") { device throws(AirlinkError) in
            device.database.services.filter { uuids?.contains($0.uuid) ?? true }
        }
    }

    package func discoverCharacteristics(
        _ id: DeviceID, of service: GATTService, uuids: [BluetoothUUID]?
    ) async throws(AirlinkError) -> [GATTCharacteristic] {
        try await request(id, "discoverCharacteristics \(service.uuid) \(Self.list(uuids))") {
            device throws(AirlinkError) in
            device.database.attributes(in: service.handles).compactMap { attribute in
                guard case .characteristicValue(let properties, _) = attribute.role,
                    uuids?.contains(attribute.type) ?? true
                else { return nil }
                return GATTCharacteristic(
                    uuid: attribute.type, declarationHandle: ATTHandle(attribute.handle.rawValue - 1),
                    valueHandle: attribute.handle, properties: properties)
            }
        }
    }

    package func discoverDescriptors(
        _ id: DeviceID, of characteristic: GATTCharacteristic, in service: GATTService
    ) async throws(AirlinkError) -> [GATTDescriptor] {
        let (handles, valueHandle) = (service.handles, characteristic.valueHandle)
        let database = try await request(id, "discoverDescriptors \(characteristic.uuid)") {
            device throws(AirlinkError) in
            device.database
        }
        return Self.descriptors(in: database, handles, of: valueHandle)
    }

    /// The descriptors of the characteristic whose value is at `valueHandle`: the attributes after
    /// the value up to the next declaration, as a GATT client finds them (Core Spec Vol 3, Part G, 4.7.1).
    private static func descriptors(
        in database: AttributeDatabase, _ handles: ClosedRange<ATTHandle>, of valueHandle: ATTHandle
    ) -> [GATTDescriptor] {
        var descriptors: [GATTDescriptor] = []
        for attribute in database.attributes(in: handles) where attribute.handle > valueHandle {
            switch attribute.role {
            case .cccd, .descriptor: descriptors.append(GATTDescriptor(uuid: attribute.type, handle: attribute.handle))
            default: return descriptors
            }
        }
        return descriptors
    }

    package func read(_ id: DeviceID, handle: ATTHandle) async throws(AirlinkError) -> [UInt8] {
        try await request(id, "read \(handle)") { device throws(AirlinkError) in
            guard let attribute = device.database[handle] else { throw Self.att(.invalidHandle, handle, "read") }
            if case .cccd = attribute.role {
                let bits = device.cccd[handle] ?? 0
                return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
            }
            guard attribute.permissions.contains(.readable) else { throw Self.att(.readNotPermitted, handle, "read") }
            if let refusal = Self.securityError(attribute.permissions, reading: true, level: device.securityLevel) {
                throw Self.att(refusal, handle, "read")
            }
            return attribute.value
        }
    }

    package func write(_ id: DeviceID, handle: ATTHandle, value: [UInt8], type: WriteType) async throws(AirlinkError) {
        if type == .withoutResponse, let mtu = devices[id]?.peripheral.mtu, value.count > mtu - 3 {
            throw AirlinkError(
                .invalidArgument, "a write without response carries at most \(mtu - 3) bytes, not \(value.count)")
        }
        try await request(id, "write \(handle) \(value.count) bytes \(type)") { device throws(AirlinkError) in
            guard let attribute = device.database[handle] else { throw Self.att(.invalidHandle, handle, "write") }
            if case .cccd = attribute.role, value.count == 2 {
                device.cccd[handle] = UInt16(value[0]) | UInt16(value[1]) << 8
                return
            }
            guard attribute.permissions.contains(.writable) else {
                if type == .withoutResponse { return }  // a server ignores a refused Write Command
                throw Self.att(.writeNotPermitted, handle, "write")
            }
            if let refusal = Self.securityError(attribute.permissions, reading: false, level: device.securityLevel) {
                throw Self.att(refusal, handle, "write")
            }
            guard value.count <= AttributeDatabase.maximumValueLength else {
                throw Self.att(.invalidAttributeValueLength, handle, "write")
            }
            try device.database.setValue(value, for: handle)
        }
    }

    package func setNotifications(
        _ id: DeviceID, characteristic: GATTCharacteristic, mode: NotificationMode
    ) async throws(AirlinkError) {
        try await request(id, "setNotifications \(characteristic.uuid) \(mode)") { device throws(AirlinkError) in
            guard let cccd = device.database.cccdHandle(forValue: characteristic.valueHandle) else {
                throw AirlinkError(
                    .operationNotSupported,
                    "characteristic \(characteristic.uuid) has no Client Characteristic Configuration")
            }
            device.cccd[cccd] = mode.cccdValue
        }
    }

    package func readRSSI(_ id: DeviceID) async throws(AirlinkError) -> Int {
        try await request(id, "readRSSI") { device throws(AirlinkError) in device.peripheral.rssi }
    }

    package func linkInfo(_ id: DeviceID) async throws(AirlinkError) -> LinkInfo {
        try requirePower("read the link of \(id)")
        guard let device = devices[id], device.connected else {
            throw AirlinkError(.notConnected, "\(id) is not connected")
        }
        return LinkInfo(mtu: device.peripheral.mtu)
    }

    private func drop(_ id: DeviceID, reason: DisconnectionReason) {
        devices[id]!.connected = false
        devices[id]!.cccd = [:]
        waits.interrupt(id, kind: .request, with: Self.linkLost(id, reason))
        emit(.disconnected(id, reason: reason))
    }

    // MARK: Fixture verbs

    package func advertise(_ id: DeviceID) {
        guard poweredOn, let scan, let device = devices[id] else { return }
        var advertisement = device.peripheral.advertisement
        advertisement.rssi = Int8(clamping: device.peripheral.rssi)
        guard scan.admits(advertisement), scan.allowDuplicates || !reported.contains(id) else { return }
        reported.insert(id)
        emit(.advertisement(id, advertisement))
    }

    package func startAdvertising(_ id: DeviceID, every interval: Duration) {
        devices[id]?.advertiser?.cancel()
        let clock = environment.clock
        devices[id]?.advertiser = environment.spawn {
            while !Task.isCancelled {
                await self.advertise(id)
                // try?: cancelled when the device stops advertising.
                guard (try? await clock.sleep(for: interval)) != nil else { return }
            }
        }
    }

    package func stopAdvertising(_ id: DeviceID) {
        devices[id]?.advertiser?.cancel()
        devices[id]?.advertiser = nil
    }

    package func setAdvertisement(_ id: DeviceID, _ advertisement: Advertisement) {
        devices[id]?.peripheral.advertisement = advertisement
        if let rssi = advertisement.rssi { devices[id]?.peripheral.rssi = Int(rssi) }
        reported.remove(id)  // a changed advertisement is reported again
    }

    package func failNextConnects(_ id: DeviceID, _ count: Int) { devices[id]?.refusals += count }

    package func setAnswersConnects(_ id: DeviceID, _ answers: Bool) { devices[id]?.answersConnects = answers }

    package func dropLink(_ id: DeviceID, reason: DisconnectionReason) {
        guard devices[id]?.connected == true else { return }
        record("dropLink \(id) \(reason)")
        drop(id, reason: reason)
    }

    @discardableResult
    package func notify(_ id: DeviceID, _ characteristic: BluetoothUUID, _ value: [UInt8]) -> Bool {
        notifyBurst(id, characteristic, count: 1, value: value) == 1
    }

    @discardableResult
    package func notifyBurst(_ id: DeviceID, _ characteristic: BluetoothUUID, count: Int, value: [UInt8]) -> Int {
        guard let device = devices[id], device.connected,
            let handle = device.database.valueHandle(of: characteristic),
            let cccd = device.database.cccdHandle(forValue: handle), (device.cccd[cccd] ?? 0) != 0
        else { return 0 }
        // A value the characteristic cannot hold (over 512 bytes) is not sent: a peripheral notifies its value.
        guard (try? devices[id]!.database.setValue(value, for: handle)) != nil else { return 0 }
        let event = TransportEvent.notification(id, handle: handle, value: value)
        broadcaster.yield(contentsOf: repeatElement(event, count: count))
        return count
    }

    package func setAdapterPower(_ on: Bool) {
        guard on != poweredOn else { return }
        if !on {
            for id in devices.keys.sorted(by: { $0.description < $1.description }) where devices[id]!.connected {
                drop(id, reason: .localHostTerminated)
            }
            waits.interrupt(nil, kind: .connect, with: Self.poweredOff)
            scan = nil
        }
        poweredOn = on
        record("adapter \(on ? "on" : "off")")
        emit(.adapterStateChanged(on ? .poweredOn : .poweredOff))
    }

    package func replaceDatabase(_ id: DeviceID, with definition: GATTServerDefinition) throws(AirlinkError) {
        let database = try AttributeDatabase(definition)
        devices[id]?.database = database
        devices[id]?.peripheral.gatt = definition
        devices[id]?.cccd = [:]
        if devices[id]?.connected == true { emit(.servicesChanged(id)) }
    }

    package func setMTU(_ id: DeviceID, _ mtu: Int) { devices[id]?.peripheral.mtu = mtu }

    package func setRequestLatency(_ latency: Duration) { self.latency = latency }

    package func failNextRequest(_ id: DeviceID, with error: AirlinkError) { devices[id]?.failures.append(error) }

    /// The device never answers its next `count` requests: each fails with `timeout` at its deadline.
    package func ignoreNextRequests(_ id: DeviceID, _ count: Int = 1) { devices[id]?.ignored += count }

    /// Ends every event stream, as closing a transport does; a stream asked for afterwards is ended
    /// at once.
    package func shutdown() { broadcaster.finish() }

    package func value(of characteristic: BluetoothUUID, on id: DeviceID) -> [UInt8]? {
        guard let database = devices[id]?.database, let handle = database.valueHandle(of: characteristic) else {
            return nil
        }
        return database[handle]?.value
    }

    package var requests: [String] { log }

    package var maximumOutstandingRequests: Int { maxOutstanding }

    // MARK: Helpers

    nonisolated func emit(_ event: TransportEvent) {
        broadcaster.yield(event)
    }

    func record(_ line: @autoclosure () -> String) { if logging { log.append(line()) } }

    func requirePower(_ what: @autoclosure () -> String) throws(AirlinkError) {
        guard poweredOn else { throw Self.poweredOff.with(context: what()) }
    }

    private static let poweredOff = AirlinkError(.adapterPoweredOff, "the adapter is powered off")

    static func linkLost(_ id: DeviceID, _ reason: DisconnectionReason = .supervisionTimeout) -> AirlinkError {
        AirlinkError(.linkLost, "the link to \(id) dropped", cause: .other(reason.description))
    }

    static func att(_ error: ATTError, _ handle: ATTHandle, _ what: String) -> AirlinkError {
        AirlinkError(.attribute, "\(what) of \(handle) refused: \(error)", cause: .att(error, handle: handle))
    }

    private static func list(_ uuids: [BluetoothUUID]?) -> String {
        uuids.map { "[\($0.map(\.description).joined(separator: ","))]" } ?? "all"
    }
}
