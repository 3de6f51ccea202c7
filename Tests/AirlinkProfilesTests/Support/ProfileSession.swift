import AirlinkCore
import AirlinkSimulation
import Synchronization

/// A connected built-in peripheral, with its characteristics found over the transport.
struct ProfileSession {
    let radio: VirtualRadio
    let id: DeviceID
    let characteristics: [GATTCharacteristic]

    static func connect(_ radio: VirtualRadio, _ id: DeviceID) async throws -> ProfileSession {
        _ = try await radio.connect(id, timeout: .seconds(5))
        var characteristics: [GATTCharacteristic] = []
        for service in try await radio.discoverServices(id, uuids: nil) {
            characteristics += try await radio.discoverCharacteristics(id, of: service, uuids: nil)
        }
        return ProfileSession(radio: radio, id: id, characteristics: characteristics)
    }

    func characteristic(_ uuid: BluetoothUUID) -> GATTCharacteristic {
        characteristics.first { $0.uuid == uuid }!
    }

    func read<Value: GATTValue>(_ uuid: BluetoothUUID, as type: Value.Type = Value.self) async throws -> Value {
        try Value(gattBytes: try await radio.read(id, handle: characteristic(uuid).valueHandle))
    }

    func write(_ value: some GATTValue, to uuid: BluetoothUUID) async throws {
        try await radio.write(id, handle: characteristic(uuid).valueHandle, value: value.gattBytes, type: .withResponse)
    }

    func writeBytes(_ bytes: [UInt8], to uuid: BluetoothUUID) async throws(AirlinkError) {
        try await radio.write(id, handle: characteristic(uuid).valueHandle, value: bytes, type: .withResponse)
    }
}

/// Values a test task observed.
final class Observed<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
}

/// Collects the notifications of one handle, from a task of the simulation.
func notifications(of handle: ATTHandle, from radio: VirtualRadio, in sim: Simulation) -> Observed<[UInt8]> {
    let observed = Observed<[UInt8]>()
    let events = radio.events()
    sim.spawn {
        for await event in events {
            if case .notification(_, let h, let value) = event, h == handle { observed.append(value) }
        }
    }
    return observed
}
