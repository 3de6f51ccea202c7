import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import AirlinkTestSupport
import Testing

/// The layers with every Generic Attribute service a peripheral may have (Core Spec Vol 3, Part G, 7), and with a
/// firmware update that moves handles: they read the right characteristic, keep notifications, and turn Database
/// Out Of Sync into a typed error they recover from.
@Suite struct GATTCachingLayersTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// Every combination of the three characteristics, from none to all.
    static let combinations: [GenericAttributeCharacteristics] = (0..<8).map {
        GenericAttributeCharacteristics(rawValue: UInt8($0))
    }

    /// The thermostat's services after an update that puts a Battery service first: every handle moves.
    static func movedServices(of spec: PeripheralSpec) -> [Service] {
        [Service(.battery) { Characteristic(.batteryLevel, properties: [.read], value: UInt8(50)) }] + spec.services
    }

    /// A strict simulation with the thermostat serving `characteristics`, and a connection to it.
    static func world(
        _ characteristics: GenericAttributeCharacteristics
    ) throws -> (Simulation, SimulatedPeripheral, ConnectionManager, DeviceManager) {
        let sim = Simulation(seed: 11, strict: true)
        var spec = PeripheralSpec.thermostat()
        spec.genericAttribute = characteristics
        let peripheral = try sim.add(spec)
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
        let connection = manager.connection(
            to: thermostat, reconnection: .linear(wait: .seconds(1), attempts: 3, timeout: .seconds(3)))
        return (sim, peripheral, connection, manager)
    }

    @Test(arguments: combinations)
    func readsNotifiesAndReconnectsWhateverTheGenericAttributeServiceServes(
        _ characteristics: GenericAttributeCharacteristics
    ) async throws {
        // Given the thermostat serving only `characteristics`, connected, its battery level observed
        let (sim, peripheral, connection, _) = try Self.world(characteristics)
        let service = connection.services.service(.thermostatBatteryService)
        let values = Recorder.recording(service.values(of: .thermostatBatteryLevel), in: sim.environment)
        let first = try await sim.run { () -> [UInt8] in
            try await connection.connect(timeout: .seconds(3))
            _ = try await service.enableNotifications(for: .thermostatBatteryLevel)
            return try await service.read(.thermostatBatteryLevel)
        }

        // When the device notifies, the link drops and comes back, and the device notifies again
        try peripheral.setValue(BatteryLevel(80), of: .thermostatBatteryLevel)
        try await sim.run(for: .milliseconds(500))
        peripheral.dropLink(reason: .supervisionTimeout)
        try await sim.run(for: .seconds(3))
        try peripheral.setValue(BatteryLevel(70), of: .thermostatBatteryLevel)
        try await sim.run(for: .milliseconds(500))
        let second = try await sim.run { try await service.read(.thermostatBatteryLevel) }

        // Then reads and both notifications arrived, the second after Airlink restored the subscription
        #expect(first == [90])
        #expect(second == [70])
        #expect(values.values.map(\.bytes) == [[80], [70]])
        #expect(connection.state.isConnected)
    }

    @Test(arguments: combinations.filter { $0.contains(.serviceChanged) })
    func aFirmwareUpdateAnnouncedOnServiceChangedIsFollowed(_ characteristics: GenericAttributeCharacteristics)
        async throws
    {
        // Given a connected thermostat serving Service Changed, its battery level read once (handles cached)
        let (sim, peripheral, connection, _) = try Self.world(characteristics)
        let service = connection.services.service(.thermostatBatteryService)
        _ = try await sim.run { () -> [UInt8] in
            try await connection.connect(timeout: .seconds(3))
            return try await service.read(.thermostatBatteryLevel)
        }

        // When new firmware moves every handle, announcing it, and the level changes
        peripheral.updateFirmware(FirmwareUpdate(services: Self.movedServices(of: peripheral.spec)))
        try await sim.run(for: .milliseconds(500))
        try peripheral.setValue(BatteryLevel(60), of: .thermostatBatteryLevel)

        // Then the same service object reads the level at its new handle
        let read = try await sim.run { try await service.read(.thermostatBatteryLevel) }
        #expect(read == [60])
    }

    @Test func serviceChangedDropsOnlyTheServicesInItsRange() async throws {
        // Given a connected thermostat, its temperature and battery level read once (both services cached)
        let (sim, peripheral, connection, _) = try Self.world(.all)
        let temperature = connection.services.service(.thermostatTemperatureService)
        let battery = connection.services.service(.thermostatBatteryService)
        try await sim.run {
            try await connection.connect(timeout: .seconds(3))
            _ = try await temperature.read(.thermostatTemperature)
            _ = try await battery.read(.thermostatBatteryLevel)
        }

        // When new firmware adds a service after the others, announcing a range that starts after them
        let added = Service(.deviceInformation) { Characteristic(.modelNumberString, properties: [.read], value: "T2") }
        peripheral.updateFirmware(FirmwareUpdate(services: peripheral.spec.services + [added]))
        try await sim.run(for: .milliseconds(500))
        let indication = try #require(
            sim.trace.records.lastIndex { record in
                guard case .attPDU(_, _, _, let pdu, _) = record.event else { return false }
                return pdu.opcode == .handleValueIndication
            })
        try await sim.run {
            _ = try await temperature.read(.thermostatTemperature)
            _ = try await battery.read(.thermostatBatteryLevel)
            _ = try await connection.services.service(.deviceInformation).read(.modelNumberString)
        }

        // Then the two services outside the range were read at their cached handles, at once, and only the new
        // one was discovered (its service by UUID, its characteristics)
        let requests = sim.trace.records[indication...].pdusSent
        #expect(requests.dropFirst().prefix(2).allSatisfy { $0.opcode == .readRequest }, "\(requests)")
        #expect(!requests.contains { $0.opcode == .readByGroupTypeRequest }, "\(requests)")
        let services = requests.compactMap { pdu -> [UInt8]? in
            guard case .findByTypeValueRequest(_, _, _, let value) = pdu else { return nil }
            return value
        }
        // Device Information, 0x180A, little-endian
        #expect(!services.isEmpty && services.allSatisfy { $0 == [0x0A, 0x18] }, "\(requests)")
    }

    @Test func databaseOutOfSyncIsATypedErrorAndTheRetryRediscovers() async throws {
        // Given a connected thermostat with robust caching enabled by the app, its battery level read once
        let (sim, peripheral, connection, manager) = try Self.world(.all)
        let service = connection.services.service(.thermostatBatteryService)
        let events = Recorder.recording(manager.events(for: Self.thermostat), in: sim.environment)
        try await sim.run {
            try await connection.connect(timeout: .seconds(3))
            try await connection.services.service(.genericAttribute).write([0x01], to: .clientSupportedFeatures)
            _ = try await service.read(.thermostatBatteryLevel)
        }

        // When firmware moves every handle without telling anyone, and the app reads twice
        peripheral.updateFirmware(
            FirmwareUpdate(services: Self.movedServices(of: peripheral.spec), announcesServiceChanged: false))
        try peripheral.setValue(BatteryLevel(50), of: .thermostatBatteryLevel)
        let first = try await sim.run { () async -> Result<[UInt8], AirlinkError> in
            do throws(AirlinkError) {
                return .success(try await service.read(.thermostatBatteryLevel))
            } catch {
                return .failure(error)
            }
        }
        let second = try await sim.run { try await service.read(.thermostatBatteryLevel) }

        // Then the first fails with databaseOutOfSync, the ATT error kept as its cause, and the caches are
        // dropped; the retry rediscovers and reads the level at its new handle
        guard case .failure(let error) = first else {
            Issue.record("the read after the silent update succeeded: \(first)")
            return
        }
        #expect(error.code == .databaseOutOfSync)
        #expect(error.attError == .databaseOutOfSync)
        #expect(second == [50])
        #expect(
            events.values.contains {
                if case .services(_, .changed) = $0 { return true }
                return false
            })
    }
}
