import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkProfiles

@Suite struct ObjectAPITests {
    /// A peripheral of the test's own with a characteristic written both ways and echoed, and a
    /// writable descriptor.
    static let echo = PeripheralSpec(name: "Echo", id: "E0:00:00:00:00:07") {
        Advertising(every: .milliseconds(100)) { LocalName("Echo") }
        Service(BluetoothUUID(0xFFF0)) {
            Characteristic(
                BluetoothUUID(0xFFF1), properties: [.read, .write, .writeWithoutResponse, .notify], value: UInt8(0)
            )
            .echoesWrites()
            .descriptor(BluetoothUUID(0x2904), value: [UInt8](repeating: 0, count: 7), permissions: .readWrite)
        }
    }

    @Test func aPeripheralIsFoundConnectedDiscoveredReadWrittenAndObserved() async throws {
        // Given the thermostat and a peripheral that echoes writes, and a central on the virtual radio
        let sim = Simulation(seed: 8, strict: true)
        try sim.add(.thermostat(temperature: 20))
        try sim.add(Self.echo)
        let central = try Central(manager: DeviceManager(transport: sim.radio, environment: sim.environment))

        // When the central discovers the thermostat by name and works through its objects
        let found = try await sim.run { try await central.discover(named: "Thermost", timeout: .seconds(1)) }
        let thermostat = try #require(found.first)
        let (state, services, reading, descriptors, description, rssi) = try await sim.run {
            try await thermostat.connect()
            let services = try await thermostat.discoverServices()
            let service = try #require(thermostat.service(.thermostatTemperatureService))
            try await service.discoverCharacteristics()
            let temperature = try #require(service.characteristic(.thermostatTemperature))
            let reading = try await temperature.read(as: Temperature.self)
            let descriptors = try await temperature.discoverDescriptors()
            let description = try await #require(temperature.descriptor(.characteristicUserDescription)).read()
            return (
                thermostat.connectionState, services.map(\.uuid), reading, descriptors.map(\.uuid), description,
                try await thermostat.readRSSI()
            )
        }

        // Then each object did its part
        #expect(found.map(\.id) == ["C0:FF:EE:00:00:01"])
        #expect(thermostat.name == "Thermostat")  // the complete name, from its scan response
        if case .connected = state {} else { Issue.record("not connected: \(state)") }
        #expect(services.contains(.thermostatTemperatureService) && services.contains(.thermostatBatteryService))
        #expect(reading == Temperature(degrees: 20))
        #expect(descriptors.contains(.clientCharacteristicConfiguration))
        #expect(description == Array("Temperature".utf8))
        #expect((-100 ... -20).contains(rssi))

        // When the echo peripheral is retrieved by identifier, written both ways and observed
        let retrieved = central.retrievePeripherals(withIdentifiers: ["E0:00:00:00:00:07", "E0:00:00:00:00:07"])
        let echo = try #require(retrieved.first)
        let (values, stored, descriptorValue, name) = try await sim.run {
            try await echo.connect()
            let service = try #require(try await echo.discoverServices([BluetoothUUID(0xFFF0)]).first)
            let characteristic = try #require(try await service.discoverCharacteristics().first)
            let stream = try await characteristic.notifications()
            try await characteristic.write([7])
            try await characteristic.write([8], type: .withoutResponse)
            var values: [[UInt8]] = []
            for await value in stream {
                values.append(value.bytes)
                if values.count == 2 { break }
            }
            let descriptor = try #require(
                try await characteristic.discoverDescriptors().first { $0.uuid == BluetoothUUID(0x2904) })
            try await descriptor.write([1, 2, 3, 4, 5, 6, 7])
            return (values, try await characteristic.read(), try await descriptor.read(), try await echo.readName())
        }

        // Then one object per identifier, both writes notified back, the descriptor written, the name read
        #expect(retrieved.count == 1 && retrieved.first === central.peripheral("E0:00:00:00:00:07"))
        #expect(values == [[7], [8]])
        #expect(stored == [8])
        #expect(descriptorValue == [1, 2, 3, 4, 5, 6, 7])
        #expect(name == "Echo")

        // When the thermostat disconnects
        try await sim.run { await thermostat.disconnect() }

        // Then it says so
        #expect(!thermostat.isConnected)
    }

    @Test func theWatchdogGivesUpAStuckOperationAndClosesTheLink() async throws {
        // Given a connected thermostat that will never answer the next read, and a 2 s operation deadline
        let sim = Simulation(seed: 8, strict: true)
        let device = try sim.add(.thermostat(temperature: 20))
        let central = try Central(
            manager: DeviceManager(transport: sim.radio, environment: sim.environment),
            watchdog: Watchdog(connect: .seconds(5), operation: .seconds(2)))
        let peripheral = central.peripheral(device.id)
        let characteristic = try await sim.run {
            try await peripheral.connect()
            let service = try #require(try await peripheral.discoverServices([.thermostatTemperatureService]).first)
            return try #require(try await service.discoverCharacteristics([.thermostatTemperature]).first)
        }
        device.neverRespond(to: .read(.thermostatTemperature))

        // When the temperature is read
        let start = sim.now.offset
        let error = try await sim.run {
            await #expect(throws: AirlinkError.self) { try await characteristic.read() }
        }
        let elapsed = sim.now.offset - start
        let disconnected = !peripheral.isConnected

        // Then the watchdog gives up at its deadline, naming the operation and the deadline, and the link is closed
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("read \(BluetoothUUID.thermostatTemperature)") == true)
        #expect(error?.message.contains("2s") == true)
        #expect(elapsed >= .seconds(2) && elapsed < .seconds(3))
        #expect(disconnected)
        #expect(
            sim.trace.records.contains { record in
                guard case .layer(.watchdogGaveUp(device.id, let operation, .seconds(2))) = record.event else {
                    return false
                }
                return operation == "read \(BluetoothUUID.thermostatTemperature)"
            })

        // When the central reconnects and reads again
        let again = try await sim.run { () async throws -> Temperature in
            try await peripheral.connect()
            return try await characteristic.read(as: Temperature.self)
        }

        // Then the object works again
        #expect(abs(again.degrees - 20) < 0.2)
    }

    @Test func theWatchdogGivesUpAConnectionAttemptThatIsNotAnswered() async throws {
        // Given a thermostat that will not answer the next connection request, and a 3 s connect deadline
        let sim = Simulation(seed: 8, strict: true)
        let device = try sim.add(.thermostat())
        device.failNextConnects(1, with: .noAnswer)
        let central = try Central(
            manager: DeviceManager(transport: sim.radio, environment: sim.environment),
            watchdog: Watchdog(connect: .seconds(3), operation: .seconds(2)))
        let peripheral = central.peripheral(device.id)

        // When the central connects with a transport timeout of 20 s
        let start = sim.now.offset
        let error = try await sim.run {
            await #expect(throws: AirlinkError.self) { try await peripheral.connect(timeout: .seconds(20)) }
        }
        let elapsed = sim.now.offset - start
        let stateAfter = peripheral.connectionState

        // Then the watchdog gives up after 3 s, saying so, and the next attempt connects
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("connect") == true && error?.message.contains("3s") == true)
        #expect(elapsed >= .seconds(3) && elapsed < .seconds(4))
        if case .disconnected = stateAfter {} else { Issue.record("still \(stateAfter)") }
        try await sim.run { try await peripheral.connect() }
        #expect(peripheral.isConnected)
    }

    @Test func aDeadlineThatIsNotPositiveIsRefused() throws {
        // Given a simulation and its radio
        let sim = Simulation(seed: 8, strict: true)
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment)

        // When a central is made with a zero operation deadline
        let error = #expect(throws: AirlinkError.self) {
            try Central(manager: manager, watchdog: Watchdog(connect: .seconds(1), operation: .zero))
        }

        // Then the error names the deadline
        #expect(error?.code == .invalidArgument && error?.message.contains("operation deadline") == true)
    }
}
