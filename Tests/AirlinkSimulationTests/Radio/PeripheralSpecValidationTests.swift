import AirlinkCore
import AirlinkSimulation
import Testing

/// Malformed specs are rejected when they are added, naming the peripheral and the fault.
@Suite struct PeripheralSpecValidationTests {
    private func rejection(_ spec: PeripheralSpec) -> AirlinkError? {
        let sim = Simulation(seed: 1, strict: true)
        do {
            try sim.add(spec)
            return nil
        } catch {
            return error
        }
    }

    @Test func anAdvertisingPayloadOver31BytesIsRejected() {
        let error = rejection(
            PeripheralSpec(name: "Chatty", id: "C0:FF:EE:00:00:10") {
                Advertising { LocalName("A name far too long for any advertisement") }
            })
        #expect(error?.code == .invalidSpecification)
        #expect(error?.message.contains("peripheral \"Chatty\"") == true)
        #expect(error?.message.contains("over the 31") == true)
    }

    @Test func duplicateCharacteristicsInOneServiceAreRejected() {
        let error = rejection(
            PeripheralSpec(name: "Twins", id: "C0:FF:EE:00:00:11") {
                Service(.battery) {
                    Characteristic(.batteryLevel, properties: .read, value: UInt8(1))
                    Characteristic(.batteryLevel, properties: .read, value: UInt8(2))
                }
            })
        #expect(error?.message.contains("declares characteristic 2A19 twice") == true)
    }

    @Test func aValueOver512BytesIsRejected() {
        let error = rejection(
            PeripheralSpec(name: "Big", id: "C0:FF:EE:00:00:12") {
                Service(.battery) {
                    Characteristic(.batteryLevel, properties: .read, value: [UInt8](repeating: 0, count: 513))
                }
            })
        #expect(error?.message.contains("513-byte") == true)
    }

    @Test func aCharacteristicOutsideAServiceIsRejected() {
        let error = rejection(
            PeripheralSpec(name: "Loose", id: "C0:FF:EE:00:00:13") {
                Characteristic(.batteryLevel, properties: .read, value: UInt8(1))
            })
        #expect(error?.message.contains("outside any service") == true)
    }

    @Test func whatTheAttributeDatabaseRefusesIsRejectedWithThePeripheralsName() {
        let error = rejection(
            PeripheralSpec(name: "Manual", id: "C0:FF:EE:00:00:14") {
                Service(.battery) {
                    Characteristic(.batteryLevel, properties: [.read, .notify], value: UInt8(1))
                        .descriptor(.clientCharacteristicConfiguration, value: UInt16(0))
                }
            })
        #expect(error?.code == .invalidSpecification)
        #expect(error?.message.hasPrefix("peripheral \"Manual\"") == true)
        #expect(error?.message.contains("CCCD") == true)
    }

    @Test func twoPeripheralsWithOneIDAreRejected() throws {
        let sim = Simulation(seed: 1, strict: true)
        try sim.add(Fixture.sensor())
        #expect(throws: AirlinkError.self) { try sim.add(Fixture.sensor()) }
    }

    @Test func aNonPositiveUpdatePeriodAndABadIntervalAreRejected() {
        let period = rejection(
            PeripheralSpec(name: "Fast", id: "C0:FF:EE:00:00:15") {
                Service(.battery) {
                    Characteristic(.batteryLevel, properties: .read, value: UInt8(1)).updates(every: .zero) { $0 }
                }
            })
        let interval = rejection(
            PeripheralSpec(name: "Hasty", id: "C0:FF:EE:00:00:16") { Advertising(every: .milliseconds(5)) })
        #expect(period?.message.contains("positive period") == true)
        #expect(interval?.message.contains("20 ms to 10.24 s") == true)
    }
}
