import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkProfiles

@Suite struct DeviceInformationServiceTests {
    @Test func readsEveryValueOfTheBatterySensor() async throws {
        // Given the battery sensor, which carries Airlink's device information
        let sim = Simulation(seed: 5, strict: true)
        let battery = try sim.add(.battery())

        // When every value is read through the typed service
        let information = try await sim.run {
            try await DeviceInformationService(try await ConnectedDevice.connect(sim, battery.id).connection).all()
        }

        // Then they are the spec's
        #expect(information == .airlinkSensor)
    }

    @Test func readsTheSensorTagsValues() async throws {
        // Given the SensorTag
        let sim = Simulation(seed: 5, strict: true)
        let tag = try sim.add(.sensorTag())

        // When its manufacturer, firmware and IDs are read
        let (manufacturer, firmware, systemID, pnpID) = try await sim.run {
            let service = DeviceInformationService(try await ConnectedDevice.connect(sim, tag.id).connection)
            return (
                try await service.manufacturer(), try await service.firmwareRevision(), try await service.systemID(),
                try await service.pnpID()
            )
        }

        // Then they are TI's, the System ID derived from the address
        let expected = SensorTagDeviceInformation.cc2541(address: try #require(tag.id.address))
        #expect(manufacturer == "Texas Instruments")
        #expect(firmware == "1.5")
        #expect(systemID.gattBytes == expected.systemID)
        #expect(pnpID.gattBytes == expected.pnpID)
    }
}
