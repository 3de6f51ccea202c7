import AirlinkCore
import AirlinkTestSupport
import Testing

@testable import AirlinkSimulation

/// Firmware updates as faults on the virtual radio, and what a peripheral's GATT server remembers of its
/// centrals across connections (Core Spec Vol 3, Part G, 2.5.2.1 and 7.1).
@Suite struct FirmwareUpdateRadioTests {
    /// The sensor's services after an update: the battery service alone, so every handle after 0x000D moves.
    static let newServices: [Service] = [
        Service(.battery) { Characteristic(.batteryLevel, properties: [.read], value: UInt8(50)) }
    ]

    /// A simulation with the sensor (bonding with its centrals or not), connected once and then disconnected.
    static func connectedOnce(bonds: Bool) async throws -> (Simulation, SimulatedPeripheral, Recorder<TransportEvent>) {
        let sim = Simulation(seed: 3, strict: true)
        var spec = Fixture.sensor()
        spec.bondsWithCentrals = bonds
        let peripheral = try sim.add(spec)
        let events = recordEvents(of: sim.radio, in: sim)
        let radio = sim.radio
        try await sim.run {
            _ = try await radio.connect(Fixture.sensorID, timeout: .seconds(3))
            await radio.disconnect(Fixture.sensorID)
        }
        return (sim, peripheral, events)
    }

    /// Reads the value of the Database Hash characteristic at 0x000D.
    static func readHash(_ sim: Simulation) async throws -> [UInt8] {
        let radio = sim.radio
        return try await sim.run { try await radio.read(Fixture.sensorID, handle: ATTHandle(0x000D)) }
    }

    @Test func aBondedCentralHearsOfAChangeMadeWhileItWasAway() async throws {
        // Given a peripheral that bonds, whose central subscribed to Service Changed and went away
        let (sim, peripheral, events) = try await Self.connectedOnce(bonds: true)
        #expect(peripheral.cachingState(ofCentral: sim.radio.address) != nil)

        // When new firmware is installed and the central reconnects
        peripheral.updateFirmware(FirmwareUpdate(services: Self.newServices))
        #expect(peripheral.cachingState(ofCentral: sim.radio.address)?.isChangeAware == false)
        let radio = sim.radio
        try await sim.run { _ = try await radio.connect(Fixture.sensorID, timeout: .seconds(3)) }
        try await sim.run(for: .milliseconds(200))

        // Then Service Changed is indicated on the new link, and confirming it made the central change-aware
        #expect(events.values.map(\.name).suffix(2) == ["connected", "servicesChanged"])
        let state = try #require(peripheral.cachingState(ofCentral: sim.radio.address))
        #expect(state.isChangeAware && state.unconfirmedServiceChange == nil)
    }

    @Test func aCentralWithoutABondIsForgottenAndHearsNothing() async throws {
        // Given a peripheral that does not bond, its central gone
        let (sim, peripheral, events) = try await Self.connectedOnce(bonds: false)
        #expect(peripheral.cachingState(ofCentral: sim.radio.address) == nil)

        // When new firmware is installed and the central reconnects
        peripheral.updateFirmware(FirmwareUpdate(services: Self.newServices))
        let radio = sim.radio
        try await sim.run { _ = try await radio.connect(Fixture.sensorID, timeout: .seconds(3)) }
        try await sim.run(for: .milliseconds(200))

        // Then no Service Changed comes: the central starts change-aware, as every unbonded one (it rediscovers)
        #expect(!events.values.map(\.name).contains("servicesChanged"))
        #expect(peripheral.cachingState(ofCentral: sim.radio.address)?.isChangeAware == true)
    }

    @Test func aStaleHashKeepsTheOldValueWhileHandlesMove() async throws {
        // Given a connected central that read the hash
        let (sim, peripheral, _) = try await Self.connectedOnce(bonds: false)
        let radio = sim.radio
        try await sim.run { _ = try await radio.connect(Fixture.sensorID, timeout: .seconds(3)) }
        let before = try await Self.readHash(sim)

        // When firmware that forgets both Service Changed and its hash is installed, then a correct one
        peripheral.updateFirmware(
            FirmwareUpdate(services: Self.newServices, announcesServiceChanged: false, hash: .stale))
        let stale = try await Self.readHash(sim)
        let services = try await sim.run { try await radio.discoverServices(Fixture.sensorID, uuids: nil) }
        peripheral.updateFirmware(FirmwareUpdate(services: Self.newServices + [Service(Fixture.service) {}]))
        let recomputed = try await Self.readHash(sim)

        // Then the broken firmware serves the old hash over a different table; the correct one a new hash
        #expect(stale == before)
        #expect(services.map(\.uuid) == [.genericAccess, .genericAttribute, .battery])
        #expect(recomputed != before)
        let traced = sim.trace.events(in: "fault").filter { $0.contains("changes its database") }
        #expect(traced.first?.hasSuffix("changes its database silently, keeping the old hash") == true)
    }

    @Test func aRequestRefusedOutOfSyncReachesNoFirmwareBehaviour() async throws {
        // Given a central that enabled robust caching on a peripheral whose reads are counted by `onRead`
        let sim = Simulation(seed: 5, strict: true)
        let peripheral = try sim.add(PeripheralBehaviourTests.scripted())
        let radio = sim.radio
        let id = peripheral.id
        let reads = try await sim.run { () -> ATTHandle in
            _ = try await radio.connect(id, timeout: .seconds(3))
            try await radio.write(id, handle: ATTHandle(0x000B), value: [0x01], type: .withResponse)
            return try peripheral.valueHandle(of: PeripheralBehaviourTests.reads)
        }

        // When a service is added at the end without telling anyone, and the central reads twice
        peripheral.updateFirmware(
            FirmwareUpdate(
                services: peripheral.spec.services + [Service(.battery) {}], announcesServiceChanged: false))
        let first = try await sim.run {
            await outcome { () async throws(AirlinkError) in try await radio.read(id, handle: reads) }
        }
        let served = peripheral.context.state["served", default: 0]
        let second = try await sim.run { try await radio.read(id, handle: reads) }

        // Then the first is refused Database Out Of Sync before `onRead` runs; the second is computed, once
        guard case .failure(let error) = first else {
            Issue.record("the first read was served: \(first)")
            return
        }
        #expect(error.attError == .databaseOutOfSync)
        #expect(served == 0)
        #expect(second == UInt32(1).gattBytes)
    }

    @Test(arguments: [
        GenericAttributeCharacteristics([]), .serviceChanged, .clientSupportedFeatures, .databaseHash,
        [.serviceChanged, .databaseHash], [.clientSupportedFeatures, .databaseHash],
    ])
    func leftOutCharacteristicsAreNotServedAndTheRestFollow(_ served: GenericAttributeCharacteristics) async throws {
        // Given the sensor whose Generic Attribute service serves only some characteristics
        let sim = Simulation(seed: 4, strict: true)
        var spec = Fixture.sensor()
        spec.genericAttribute = served
        _ = try sim.add(spec)
        let radio = sim.radio

        // When a central connects and discovers the Generic Attribute service's characteristics
        let found = try await sim.run { () -> [BluetoothUUID] in
            _ = try await radio.connect(Fixture.sensorID, timeout: .seconds(3))
            let generic = try await radio.discoverServices(Fixture.sensorID, uuids: [.genericAttribute])[0]
            return try await radio.discoverCharacteristics(Fixture.sensorID, of: generic, uuids: nil).map(\.uuid)
        }

        // Then exactly those served are found, in handle order
        let all: [(GenericAttributeCharacteristics, BluetoothUUID)] = [
            (.serviceChanged, .serviceChanged), (.clientSupportedFeatures, .clientSupportedFeatures),
            (.databaseHash, .databaseHash),
        ]
        let expected = all.filter { served.contains($0.0) }.map(\.1)
        #expect(found == expected)
    }

    @Test func aDefinedServiceMayNotServeAGenericAttributeCharacteristic() {
        // Given a definition whose own service declares a Database Hash
        let definition = GATTServerDefinition(
            deviceName: "X",
            services: [.init(BluetoothUUID(0x180F), characteristics: [.init(.databaseHash, properties: .read)])])

        // Then it is refused, saying where to choose instead
        #expect {
            try AttributeDatabase(definition)
        } throws: { error in
            (error as? AirlinkError)?.code == .invalidSpecification
                && (error as? AirlinkError)?.message.contains("genericAttribute") == true
        }
    }
}
