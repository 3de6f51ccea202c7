import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport

/// Test peripherals for the radio tests (the built-in profiles live in AirlinkProfiles).
enum Fixture {
    static let service = BluetoothUUID(value: 0xA1B2_0001_0000_1000_8000_0080_5F9B_34FB)
    static let counter = BluetoothUUID(value: 0xA1B2_0002_0000_1000_8000_0080_5F9B_34FB)
    static let blob = BluetoothUUID(value: 0xA1B2_0003_0000_1000_8000_0080_5F9B_34FB)
    static let secret = BluetoothUUID(value: 0xA1B2_0004_0000_1000_8000_0080_5F9B_34FB)
    static let alarm = BluetoothUUID(value: 0xA1B2_0005_0000_1000_8000_0080_5F9B_34FB)
    static let stream = BluetoothUUID(value: 0xA1B2_0006_0000_1000_8000_0080_5F9B_34FB)

    static let sensorID: DeviceID = "C0:FF:EE:00:00:01"
    static let beaconID: DeviceID = "C0:FF:EE:00:00:02"

    /// A sensor: a UInt16 counter (read, write, write without response, notify), a 300-byte blob
    /// (read, write), a write-only secret, an indicate-only alarm and a 244-byte stream (notify).
    static func sensor(id: DeviceID = sensorID, position: Position = .metres(2)) -> PeripheralSpec {
        PeripheralSpec(name: "Sensor", id: id, position: position) {
            Advertising(every: .milliseconds(100)) {
                LocalName("Sensor")
                ServiceUUIDs(.battery)
            }
            Service(service) {
                Characteristic(counter, properties: [.read, .write, .writeWithoutResponse, .notify], value: UInt16(7))
                    .userDescription("Counter")
                Characteristic(blob, properties: [.read, .write], value: (0..<300).map { UInt8($0 % 251) })
                Characteristic(secret, properties: [.write], value: UInt8(0))
                Characteristic(alarm, properties: [.read, .indicate], value: UInt8(0))
                Characteristic(stream, properties: [.notify], value: [UInt8](repeating: 0xAB, count: 244))
            }
            Service(.battery) {
                Characteristic(.batteryLevel, properties: [.read, .notify], value: UInt8(87))
            }
        }
    }

    /// A non-connectable beacon.
    static func beacon(position: Position = .metres(3)) -> PeripheralSpec {
        PeripheralSpec(name: "Beacon", id: beaconID, position: position) {
            Advertising(every: .milliseconds(200), connectable: false) {
                LocalName("Beacon")
                ManufacturerData(company: 0x004C, [UInt8]([0x02, 0x15]))
            }
        }
    }
}

/// Collects a transport's events in a recorder, from a task of the simulation.
func recordEvents(of radio: VirtualRadio, in sim: Simulation) -> Recorder<TransportEvent> {
    let recorder = Recorder<TransportEvent>()
    let stream = radio.events()
    sim.spawn {
        for await event in stream { recorder.append(event) }
    }
    return recorder
}

extension TransportEvent {
    /// A short name for assertions: `advertisement`, `connected`, `disconnected(0x08)`, `notification`.
    var name: String {
        switch self {
        case .adapterStateChanged(let state): "adapter(\(state))"
        case .advertisement: "advertisement"
        case .connected: "connected"
        case .disconnected(_, let reason): "disconnected(\(reason.rawValue))"
        case .notification: "notification"
        case .servicesChanged: "servicesChanged"
        case .bondChanged(_, let bonded): "bondChanged(\(bonded))"
        case .securityRequested(_, let request): "securityRequested(\(request))"
        }
    }
}

/// Connects and resolves the sensor's main characteristics.
struct ConnectedSensor {
    var info: LinkInfo
    var services: [GATTService]
    var characteristics: [BluetoothUUID: GATTCharacteristic]
    var service: GATTService

    static func connect(_ radio: VirtualRadio, _ id: DeviceID = Fixture.sensorID) async throws -> ConnectedSensor {
        let info = try await radio.connect(id, timeout: .seconds(5))
        let services = try await radio.discoverServices(id, uuids: nil)
        let service = services.first { $0.uuid == Fixture.service }!
        let found = try await radio.discoverCharacteristics(id, of: service, uuids: nil)
        var characteristics: [BluetoothUUID: GATTCharacteristic] = [:]
        for characteristic in found { characteristics[characteristic.uuid] = characteristic }
        return ConnectedSensor(info: info, services: services, characteristics: characteristics, service: service)
    }

    func handle(_ uuid: BluetoothUUID) -> ATTHandle { characteristics[uuid]!.valueHandle }
}

/// The outcome of a throwing call, as a value.
func outcome<Success>(_ body: () async throws(AirlinkError) -> Success) async -> Result<Success, AirlinkError> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
