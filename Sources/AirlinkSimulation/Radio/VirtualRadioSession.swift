import AirlinkCore

/// Another app's connection to a ``VirtualRadio``'s adapter, as a second process's D-Bus connection to the
/// bluetoothd that owns a BlueZ adapter: a ``/AirlinkCore/Transport`` of its own over the same links.
///
/// Links belong to the adapter, not to a session: a `connect` to a device another session connected returns
/// that link at once (and announces it again with `.connected`), a `disconnect` takes it down for every
/// session (each other session's layers see a loss, and their reconnection strategies apply), and every
/// session hears every event of the adapter. What a session keeps for itself, as bluetoothd keeps per
/// client: its scan (the adapter scans with the union of the sessions' filters, and stops when the last
/// session stops) and its notifications (the CCCD goes off only when the last session that enabled them
/// disables them).
///
/// ```swift
/// let sim = Simulation(seed: 7)
/// let first = DeviceManager(transport: sim.radio, environment: sim.environment)
/// let second = DeviceManager(transport: sim.radio.session(), environment: sim.environment)
/// ```
public final class VirtualRadioSession: Transport, Sendable {
    /// The adapter the session shares.
    public let radio: VirtualRadio
    let client: Int

    init(radio: VirtualRadio, client: Int) {
        self.radio = radio
        self.client = client
    }

    /// `sim`, as the radio's.
    public var name: String { radio.name }

    /// The adapter's power state.
    public var adapterState: AdapterState {
        get async { await radio.adapterState }
    }

    /// A new stream of everything the adapter observes (the same events every session hears).
    public func events() -> TransportEvents { radio.events() }

    /// Starts or replaces this session's scan; the adapter scans with every session's filters.
    public func startScan(_ filter: ScanFilter) async throws(AirlinkError) {
        try radio.world.lock.withLock { () throws(AirlinkError) in try radio.startScanLocked(filter, client: client) }
    }

    /// Stops this session's scan; the adapter goes on scanning for the other sessions.
    public func stopScan() async {
        radio.world.lock.withLock { radio.stopScanLocked(client: client) }
    }

    /// Connects, or returns the link another session made.
    public func connect(_ device: DeviceID, timeout: Duration) async throws(AirlinkError) -> LinkInfo {
        try await radio.connect(device, timeout: timeout)
    }

    /// Takes the link down, for every session.
    public func disconnect(_ device: DeviceID) async { await radio.disconnect(device) }

    /// Discovers services over the shared link.
    public func discoverServices(_ device: DeviceID, uuids: [BluetoothUUID]?) async throws(AirlinkError)
        -> [GATTService]
    {
        try await radio.discoverServices(device, uuids: uuids)
    }

    /// Discovers a service's characteristics over the shared link.
    public func discoverCharacteristics(
        _ device: DeviceID, of service: GATTService, uuids: [BluetoothUUID]?
    ) async throws(AirlinkError) -> [GATTCharacteristic] {
        try await radio.discoverCharacteristics(device, of: service, uuids: uuids)
    }

    /// Discovers a characteristic's descriptors over the shared link.
    public func discoverDescriptors(
        _ device: DeviceID, of characteristic: GATTCharacteristic, in service: GATTService
    ) async throws(AirlinkError) -> [GATTDescriptor] {
        try await radio.discoverDescriptors(device, of: characteristic, in: service)
    }

    /// Reads a value over the shared link.
    public func read(_ device: DeviceID, handle: ATTHandle) async throws(AirlinkError) -> [UInt8] {
        try await radio.read(device, handle: handle)
    }

    /// Reads the first attribute of `type` over the shared link, with one Read By Type Request.
    public func readValue(_ device: DeviceID, ofType type: BluetoothUUID) async throws(AirlinkError) -> [UInt8]? {
        try await radio.readValue(device, ofType: type)
    }

    /// Writes a value over the shared link.
    public func write(
        _ device: DeviceID, handle: ATTHandle, value: [UInt8], type: WriteType
    ) async throws(AirlinkError) {
        try await radio.write(device, handle: handle, value: value, type: type)
    }

    /// Enables or disables this session's notifications; the CCCD goes off only when no session wants them.
    public func setNotifications(
        _ device: DeviceID, characteristic: GATTCharacteristic, mode: NotificationMode
    ) async throws(AirlinkError) {
        try await radio.setNotifications(device, characteristic: characteristic, mode: mode, client: client)
    }

    /// The RSSI of the shared link.
    public func readRSSI(_ device: DeviceID) async throws(AirlinkError) -> Int { try await radio.readRSSI(device) }

    /// The shared link's parameters.
    public func linkInfo(_ device: DeviceID) async throws(AirlinkError) -> LinkInfo {
        try await radio.linkInfo(device)
    }
}

extension VirtualRadio {
    /// A new session on this adapter: another app's ``/AirlinkCore/Transport`` over the same links, with its own
    /// scan and notifications (see ``VirtualRadioSession``).
    public func session() -> VirtualRadioSession {
        let client = world.lock.withLock {
            defer { nextClient += 1 }
            return nextClient
        }
        return VirtualRadioSession(radio: self, client: client)
    }
}

extension VirtualRadioSession {
    /// Pairs over the shared link: the bond is the adapter's, as BlueZ keeps one per adapter for every client.
    public func pair(
        _ device: DeviceID, features: PairingFeatures, agent: PairingAgent
    ) async throws(AirlinkError) -> PairingResult {
        try await radio.pair(device, features: features, agent: agent)
    }

    /// Forgets the adapter's bond with `device`, for every session.
    public func forgetBond(_ device: DeviceID) async { radio.forgetBond(device) }
}
