import AirlinkCore
import AirlinkSimulation

/// The peripherals and steps the radio benchmarks share.
enum RadioBenchmarkFixtures {
    static let service = BluetoothUUID(value: 0xB0B0_0001_0000_1000_8000_0080_5F9B_34FB)
    static let value = BluetoothUUID(value: 0xB0B0_0002_0000_1000_8000_0080_5F9B_34FB)
    static let sensorID: DeviceID = "C0:FF:EE:00:00:01"

    /// A beacon-like sensor with one service, at a distance between 1 and 20 m.
    static func beacon(_ index: Int) -> PeripheralSpec {
        let address = BDAddress(value: 0xD000_0000_0000 | UInt64(index))
        return PeripheralSpec(
            name: "Node \(index)", id: DeviceID(address), position: .metres(1 + Double(index % 20))
        ) {
            Advertising(every: .milliseconds(100)) {
                LocalName("Node \(index)")
                ServiceUUIDs(.battery)
            }
            Service(.battery) {
                Characteristic(.batteryLevel, properties: [.read, .notify], value: UInt8(index % 100))
            }
        }
    }

    /// A sensor with a 20-byte value that can be read and notified.
    static func sensor() -> PeripheralSpec {
        PeripheralSpec(name: "Sensor", id: sensorID) {
            Advertising(every: .milliseconds(20)) { LocalName("Sensor") }
            Service(service) {
                Characteristic(value, properties: [.read, .notify], value: [UInt8](repeating: 0x5A, count: 20))
            }
        }
    }

    /// Connects to the sensor, optionally turns notifications on, and returns the value's handle.
    static func connect(_ sim: Simulation, subscribe: Bool = false) async throws -> ATTHandle {
        let radio = sim.radio
        return try await sim.run {
            _ = try await radio.connect(sensorID, timeout: .seconds(5))
            let services = try await radio.discoverServices(sensorID, uuids: [service])
            let characteristic = try await radio.discoverCharacteristics(sensorID, of: services[0], uuids: [value])[0]
            if subscribe { try await radio.setNotifications(sensorID, characteristic: characteristic, mode: .notify) }
            return characteristic.valueHandle
        }
    }
}
