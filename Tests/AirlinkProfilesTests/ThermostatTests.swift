import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkProfiles

@Suite struct ThermostatTests {
    @Test func isDiscoverableByItsTemperatureService() async throws {
        // Given the thermostat and a battery sensor
        let sim = Simulation(seed: 1, strict: true)
        try sim.add(.thermostat())
        try sim.add(.battery())
        let radio = sim.radio
        let events = radio.events()

        // When a central scans for the thermostat's service
        let found = try await sim.run { () -> [(DeviceID, Advertisement)] in
            try await radio.startScan(ScanFilter(services: [.thermostatTemperatureService]))
            try await sim.clock.sleep(for: .seconds(1))
            await radio.stopScan()
            radio.shutdown()
            var found: [(DeviceID, Advertisement)] = []
            for await case .advertisement(let id, let advertisement) in events { found.append((id, advertisement)) }
            return found
        }

        // Then only the thermostat is reported, its advertising PDU with its shortened name, within 31 bytes,
        // then its scan response with the complete name (the scan is active)
        #expect(found.map(\.0) == ["C0:FF:EE:00:00:01", "C0:FF:EE:00:00:01"])
        #expect(found.first?.1.localName == .shortened("Thermost"))
        #expect(found.last?.1.isScanResponse == true)
        #expect(found.last?.1.localName == .complete("Thermostat"))
        #expect(try Advertising.thermostatSize() <= 31)
    }

    @Test func writingTheSetPointMovesTheTemperatureAndNotifiesEachStep() async throws {
        // Given a connected thermostat at 21 °C, with temperature notifications on
        let sim = Simulation(seed: 1, strict: true)
        let thermostat = try sim.add(.thermostat(temperature: 21))
        let radio = sim.radio
        let session = try await sim.run { try await ProfileSession.connect(radio, thermostat.id) }
        let temperature = session.characteristic(.thermostatTemperature)
        let received = notifications(of: temperature.valueHandle, from: radio, in: sim)
        let before = try await sim.run {
            try await radio.setNotifications(thermostat.id, characteristic: temperature, mode: .notify)
            return try await session.read(.thermostatTemperature, as: Temperature.self)
        }

        // When the central sets 22 °C and ten seconds pass
        try await sim.run { try await session.write(Temperature(degrees: 22), to: .thermostatTemperature) }
        try await sim.run(for: .seconds(10))
        let after = try await sim.run { try await session.read(.thermostatTemperature, as: Temperature.self) }
        try await sim.run(for: .seconds(10))

        // Then the room warms by 0.1 °C a second, notifying each step, and stops at the set point
        #expect(before == Temperature(degrees: 21))
        #expect(abs(after.degrees - 22) < 0.11)
        let values = try received.values.map { try Temperature(gattBytes: $0).degrees }
        #expect(values.count == 10)
        #expect(values.first.map { abs($0 - 21.1) < 0.001 } == true)
        #expect(values.last.map { abs($0 - 22) < 0.001 } == true)
    }

    @Test func readsFollowTheUnit() async throws {
        // Given a thermostat at 20 °C
        let sim = Simulation(seed: 1, strict: true)
        let thermostat = try sim.add(.thermostat(temperature: 20))
        let radio = sim.radio

        // When the central switches the unit to Fahrenheit and reads
        let (unit, reading) = try await sim.run {
            let session = try await ProfileSession.connect(radio, thermostat.id)
            try await session.write(TemperatureUnit.fahrenheit, to: .thermostatUnit)
            return (
                try await session.read(.thermostatUnit, as: TemperatureUnit.self),
                try await session.read(.thermostatTemperature, as: Temperature.self)
            )
        }

        // Then it reads 68 °F
        #expect(unit == .fahrenheit)
        #expect(reading == Temperature(degrees: 68))
    }

    @Test func refusesWhatARealThermostatWouldRefuse() async throws {
        let sim = Simulation(seed: 1, strict: true)
        let thermostat = try sim.add(.thermostat())
        let radio = sim.radio
        let (unitError, lengthError, batteryError) = try await sim.run {
            let session = try await ProfileSession.connect(radio, thermostat.id)
            func failure(_ body: () async throws(AirlinkError) -> Void) async -> AirlinkError? {
                do { try await body() } catch { return error }
                return nil
            }
            let unit = await failure { () async throws(AirlinkError) in
                try await session.writeBytes([2], to: .thermostatUnit)
            }
            let length = await failure { () async throws(AirlinkError) in
                try await session.writeBytes([1, 2, 3], to: .thermostatTemperature)
            }
            let battery = await failure { () async throws(AirlinkError) in
                try await session.writeBytes([50], to: .thermostatBatteryLevel)
            }
            return (unit, length, battery)
        }
        #expect(unitError?.attError == .valueNotAllowed)
        #expect(lengthError?.attError == .invalidAttributeValueLength)
        #expect(batteryError?.attError == .writeNotPermitted)
    }

    @Test func temperatureAndUnitHaveFixedLittleEndianLayouts() throws {
        #expect(Temperature(degrees: 21.5).gattBytes == [0x66, 0x08])
        #expect(Temperature(degrees: -1).gattBytes == [0x9C, 0xFF])
        #expect(try Temperature(gattBytes: [0x66, 0x08]).description == "21.50°")
        #expect(throws: AirlinkError.self) { try Temperature(gattBytes: [1]) }
        #expect(throws: AirlinkError.self) { try Temperature(checkingDegrees: 400) }
        #expect(TemperatureUnit.fahrenheit.gattBytes == [1])
        #expect(throws: AirlinkError.self) { try TemperatureUnit(gattBytes: [2]) }
        #expect(TemperatureUnit.fahrenheit.fromCelsius(100) == 212)
    }
}

extension Advertising {
    /// The encoded size of the thermostat's advertising data.
    static func thermostatSize() throws -> Int {
        try PeripheralSpec.thermostat().advertising!.advertisingData().count
    }
}
