import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkProfiles

@Suite struct BatteryTests {
    @Test func theLevelDrainsAndNotifiesOverVirtualTime() async throws {
        // Given a connected battery at 87 % draining 1 % a minute, with notifications on
        let sim = Simulation(seed: 1, strict: true)
        let battery = try sim.add(.battery(level: 87))
        let radio = sim.radio
        let session = try await sim.run { try await ProfileSession.connect(radio, battery.id) }
        let level = session.characteristic(.batteryLevel)
        let received = notifications(of: level.valueHandle, from: radio, in: sim)
        let first = try await sim.run {
            try await radio.setNotifications(battery.id, characteristic: level, mode: .notify)
            return try await session.read(.batteryLevel, as: BatteryLevel.self)
        }

        // When three minutes pass
        try await sim.run(for: .seconds(180))

        // Then three notifications arrived, one each minute, and a read agrees
        #expect(first == BatteryLevel(87))
        #expect(try received.values.map { try BatteryLevel(gattBytes: $0).percent } == [86, 85, 84])
        let now = try await sim.run { try await session.read(.batteryLevel, as: BatteryLevel.self) }
        #expect(now == BatteryLevel(84))
    }

    @Test func aDisconnectedBatteryStillDrains() async throws {
        // Given a battery nobody is connected to
        let sim = Simulation(seed: 1, strict: true)
        let battery = try sim.add(.battery(level: 50, drainEvery: .seconds(10)))

        // When five minutes pass (with no timer armed: the update is caught up on access)
        try await sim.run(for: .seconds(300))

        // Then the level reflects thirty steps
        #expect(try battery.value(of: .batteryLevel, as: BatteryLevel.self) == BatteryLevel(20))
        #expect(sim.statistics.pendingTimers == 0)
    }

    @Test func deviceInformationReadsAsTypedValues() async throws {
        let sim = Simulation(seed: 1, strict: true)
        let battery = try sim.add(.battery())
        let radio = sim.radio
        let (manufacturer, model, firmware, systemID, pnpID) = try await sim.run {
            let session = try await ProfileSession.connect(radio, battery.id)
            return (
                try await session.read(.manufacturerNameString, as: String.self),
                try await session.read(.modelNumberString, as: String.self),
                try await session.read(.firmwareRevisionString, as: String.self),
                try await session.read(.systemID, as: SystemID.self),
                try await session.read(.pnpID, as: PnPID.self)
            )
        }
        let expected = DeviceInformation.airlinkSensor
        #expect(manufacturer == expected.manufacturer)
        #expect(model == expected.model)
        #expect(firmware == expected.firmwareRevision)
        #expect(systemID == expected.systemID)
        #expect(pnpID == expected.pnpID)
    }

    @Test func typedValuesCheckTheirRanges() throws {
        #expect(throws: AirlinkError.self) { try BatteryLevel(gattBytes: [101]) }
        #expect(throws: AirlinkError.self) { try BatteryLevel(checking: -1) }
        #expect(BatteryLevel(5).drained(by: 10) == BatteryLevel(0))
        let pnp = PnPID(
            vendorIDSource: .usbImplementersForum, vendorID: 0x1234, productID: 0x5678, productVersion: 0x0102)
        #expect(pnp.gattBytes == [0x02, 0x34, 0x12, 0x78, 0x56, 0x02, 0x01])
        #expect(try PnPID(gattBytes: pnp.gattBytes) == pnp)
        #expect(throws: AirlinkError.self) { try PnPID(gattBytes: [9, 0, 0, 0, 0, 0, 0]) }
        let system = SystemID(manufacturerIdentifier: 0x01_0203_0405, organizationallyUniqueIdentifier: 0x0A_0B0C)
        #expect(system.gattBytes == [0x05, 0x04, 0x03, 0x02, 0x01, 0x0C, 0x0B, 0x0A])
        #expect(try SystemID(gattBytes: system.gattBytes) == system)
    }
}
