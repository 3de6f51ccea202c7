import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkProfiles

// The worked example of Docs/SimulatedPeripherals.md, verbatim below the marker.
// --- example ---

/// Soil moisture in 0.1 % steps: uint16 little-endian, 0–1000.
struct Moisture: GATTValue, Hashable {
    var permille: UInt16
    init(permille: UInt16) { self.permille = permille }
    init(gattBytes: [UInt8]) throws(AirlinkError) {
        let raw = try UInt16(gattBytes: gattBytes)
        guard raw <= 1000 else {
            throw AirlinkError(.malformedData, "Moisture is 0–1000 ‰, not \(raw) (offset 0)")
        }
        permille = raw
    }
    var gattBytes: [UInt8] { permille.gattBytes }
}

extension BluetoothUUID {
    static let plantService = BluetoothUUID(value: 0x1234_0001_0000_1000_8000_0080_5F9B_34FB)
    static let moisture = BluetoothUUID(value: 0x1234_0002_0000_1000_8000_0080_5F9B_34FB)
    static let pump = BluetoothUUID(value: 0x1234_0003_0000_1000_8000_0080_5F9B_34FB)
}

extension PeripheralSpec {
    /// Plant sensor: moisture notifies every 30 s, drying 0.5 % per step; the pump wets the soil.
    static func plant(id: DeviceID = "C0:FF:EE:00:00:42") -> PeripheralSpec {
        PeripheralSpec(name: "Plant", id: id, position: .metres(3)) {
            Advertising(every: .milliseconds(250)) {
                LocalName("Plant")
                ServiceUUIDs(.plantService)
                TxPower(0)
            }
            State("pumping", false)
            Service(.plantService) {
                Characteristic(.moisture, properties: [.read, .notify], value: Moisture(permille: 420))
                    .userDescription("Soil moisture")
                    .updates(every: .seconds(30)) { moisture, context in
                        let pumping = context.state["pumping", default: false]
                        let current = Int(moisture.permille)
                        let next = pumping ? min(1000, current + 50) : max(0, current - 5)
                        return Moisture(permille: UInt16(next))
                    }
                Characteristic(.pump, properties: [.read, .write], value: false)
                    .onWrite { context, on in
                        guard !on || context.state["pumping", default: false] == false else {
                            throw ATTRefusal(.valueNotAllowed)  // already pumping
                        }
                        context.state["pumping"] = on
                        context.log("pump \(on ? "on" : "off")")
                    }
            }
            Service.deviceInformation(.airlinkSensor)  // from AirlinkProfiles
            Timeline {
                At(
                    .seconds(600),
                    .changeDatabase {
                        Service(.plantService) {
                            Characteristic(.moisture, properties: [.read, .notify], value: Moisture(permille: 0))
                        }
                    })
            }
        }
    }
}
// --- end of example ---

@Suite struct DocsExampleTests {
    @Test func thePlantSensorOfTheGuideWorks() async throws {
        // Given the guide's plant sensor
        let sim = Simulation(seed: 1, strict: true)
        let plant = try sim.add(.plant())
        let radio = sim.radio

        // When the central switches the pump on, then tries again, and two minutes pass
        let second = try await sim.run { () -> AirlinkError? in
            let session = try await ProfileSession.connect(radio, plant.id)
            try await session.write(true, to: .pump)
            do {
                try await session.writeBytes([1], to: .pump)
                return nil
            } catch let error as AirlinkError {
                return error
            }
        }
        try await sim.run(for: .seconds(120))

        // Then the second switch-on is refused, and the soil got wetter every 30 s
        #expect(second?.attError == .valueNotAllowed)
        #expect(try plant.value(of: .moisture, as: Moisture.self) == Moisture(permille: 620))
        #expect(sim.trace.events(in: "peripheral").contains("C0:FF:EE:00:00:42 pump on"))
    }
}
