import AirlinkCore
import AirlinkSimulation
import Synchronization

/// A transport that forwards every call to another and records, as a typed trace record, when the layers
/// asked it to connect: the BlueZ explorer's counterpart of the radio's `connecting` record, which the
/// reconnection reference model reads as an attempt's start.
///
/// The time is the environment's clock at the call, before the wrapped transport does anything: what the
/// layers decided, not how long BlueZ took.
final class AttemptRecordingTransport: Transport {
    private let base: any Transport
    private let clock: AirlinkClock
    private let records: Mutex<[TraceRecord]>

    /// Wraps `base`, stamping records with `clock`.
    init(_ base: any Transport, clock: AirlinkClock) {
        self.base = base
        self.clock = clock
        records = Mutex([])
    }

    /// The `connecting` records so far, in the order of the calls.
    var attempts: [TraceRecord] { records.withLock { $0 } }

    var name: String { base.name }
    var adapterState: AdapterState { get async { await base.adapterState } }
    func events() -> TransportEvents { base.events() }
    func startScan(_ filter: ScanFilter) async throws(AirlinkError) { try await base.startScan(filter) }
    func stopScan() async { await base.stopScan() }

    func connect(_ device: DeviceID, timeout: Duration) async throws(AirlinkError) -> LinkInfo {
        let record = TraceRecord(time: clock.now, event: .connecting(adapter: 0, device: device, timeout: timeout))
        records.withLock { $0.append(record) }
        return try await base.connect(device, timeout: timeout)
    }

    func disconnect(_ device: DeviceID) async { await base.disconnect(device) }

    func discoverServices(_ device: DeviceID, uuids: [BluetoothUUID]?) async throws(AirlinkError) -> [GATTService] {
        try await base.discoverServices(device, uuids: uuids)
    }

    func discoverCharacteristics(
        _ device: DeviceID, of service: GATTService, uuids: [BluetoothUUID]?
    ) async throws(AirlinkError) -> [GATTCharacteristic] {
        try await base.discoverCharacteristics(device, of: service, uuids: uuids)
    }

    func discoverDescriptors(
        _ device: DeviceID, of characteristic: GATTCharacteristic, in service: GATTService
    ) async throws(AirlinkError) -> [GATTDescriptor] {
        try await base.discoverDescriptors(device, of: characteristic, in: service)
    }

    func read(_ device: DeviceID, handle: ATTHandle) async throws(AirlinkError) -> [UInt8] {
        try await base.read(device, handle: handle)
    }

    func write(_ device: DeviceID, handle: ATTHandle, value: [UInt8], type: WriteType) async throws(AirlinkError) {
        try await base.write(device, handle: handle, value: value, type: type)
    }

    func setNotifications(
        _ device: DeviceID, characteristic: GATTCharacteristic, mode: NotificationMode
    ) async throws(AirlinkError) {
        try await base.setNotifications(device, characteristic: characteristic, mode: mode)
    }

    func readRSSI(_ device: DeviceID) async throws(AirlinkError) -> Int { try await base.readRSSI(device) }
    func pair(_ device: DeviceID, features: PairingFeatures, agent: PairingAgent) async throws(AirlinkError)
        -> PairingResult
    { try await base.pair(device, features: features, agent: agent) }
    func forgetBond(_ device: DeviceID) async { await base.forgetBond(device) }
    func linkInfo(_ device: DeviceID) async throws(AirlinkError) -> LinkInfo { try await base.linkInfo(device) }
}
