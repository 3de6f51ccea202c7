import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkProfiles

@Suite struct ThermostatServiceTests {
    @Test func theSetPointIsWrittenAndTheTemperatureObservedMovingTowardIt() async throws {
        // Given a connected thermostat at 20 °C observed through the typed service
        let sim = Simulation(seed: 3, strict: true)
        let thermostat = try sim.add(.thermostat(temperature: 20))
        let (service, readings) = try await sim.run {
            let device = try await ConnectedDevice.connect(sim, thermostat.id)
            let service = ThermostatService(device.connection)
            return (service, try await service.temperatures())
        }
        let observed = Observed<ThermostatReading>()
        sim.spawn { for await reading in readings { observed.append(reading) } }

        // When the set point is set to 21.5 °C and 30 s pass
        let before = try await sim.run { () async throws(AirlinkError) -> ThermostatReading in
            try await service.setSetPoint(21.5)
            return try await service.temperature()
        }
        try await sim.run(for: .seconds(30))
        let after = try await sim.run { try await service.temperature() }

        // Then the device holds the set point and the readings climb monotonically to it
        #expect(thermostat.context.state[PeripheralSpec.ThermostatState.setPoint, default: 0.0] == 21.5)
        // (the read right after the write may come after the room's next one-second step: at most one step, 0.1 °C)
        #expect(before.celsius >= 20 - 0.001 && before.celsius <= 20.1 + 0.001)
        #expect(abs(after.celsius - 21.5) < 0.01)
        let values = observed.values.map(\.celsius)
        #expect(values.count == 15)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
        #expect(values.last.map { abs($0 - 21.5) < 0.01 } == true)
    }

    @Test func fahrenheitReadingsAndSetPointsConvert() async throws {
        // Given a thermostat at 20 °C
        let sim = Simulation(seed: 3, strict: true)
        let thermostat = try sim.add(.thermostat(temperature: 20))

        // When the unit is set to Fahrenheit and a set point of 71.6 °F is written
        let (unit, reading) = try await sim.run {
            let device = try await ConnectedDevice.connect(sim, thermostat.id)
            let service = ThermostatService(device.connection)
            try await service.setUnit(.fahrenheit)
            try await service.setSetPoint(71.6, unit: .fahrenheit)
            return (try await service.unit(), try await service.temperature())
        }

        // Then readings are in °F (the room has not moved more than one 0.1 °C step) and the set point is 22 °C
        #expect(unit == .fahrenheit)
        #expect(reading.unit == .fahrenheit && abs(reading.celsius - 20) <= 0.1 + 0.01)
        #expect(abs(reading.degrees - reading.unit.fromCelsius(reading.celsius)) < 1e-9)
        #expect(abs(thermostat.context.state[PeripheralSpec.ThermostatState.setPoint, default: 0.0] - 22) < 0.01)
    }

    @Test func aSetPointOutOfRangeIsRefusedNamingTheValueAndTheLimits() async throws {
        // Given a connected thermostat
        let sim = Simulation(seed: 3, strict: true)
        let thermostat = try sim.add(.thermostat(temperature: 20))
        let service = try await sim.run {
            ThermostatService(try await ConnectedDevice.connect(sim, thermostat.id).connection)
        }

        // When set points of 40 °C and 104 °F are asked for, and 40 °C written past the service
        let tooHot = try await sim.run {
            await #expect(throws: AirlinkError.self) { try await service.setSetPoint(40) }
        }
        let tooHotF = try await sim.run {
            await #expect(throws: AirlinkError.self) { try await service.setSetPoint(104, unit: .fahrenheit) }
        }
        let refused = try await sim.run {
            await #expect(throws: AirlinkError.self) {
                try await service.service.write(Temperature(degrees: 40), to: .thermostatTemperature)
            }
        }

        // Then the service names the value and the range, and the device refuses with Value Not Allowed
        #expect(tooHot?.code == .invalidArgument)
        #expect(tooHot?.message.contains("40.0°C") == true && tooHot?.message.contains("5.0°C to 35.0°C") == true)
        #expect(tooHotF?.message.contains("41.0°F to 95.0°F") == true)
        #expect(refused?.code == .attribute)
        if case .att(let error, _)? = refused?.cause {
            #expect(error == .valueNotAllowed)
        } else {
            Issue.record("no ATT cause")
        }
        #expect(thermostat.context.state[PeripheralSpec.ThermostatState.setPoint, default: 0.0] == 20)
    }
}
