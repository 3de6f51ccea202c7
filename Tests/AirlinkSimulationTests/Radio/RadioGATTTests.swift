import AirlinkCore
import AirlinkSimulation
import Testing

@Suite struct RadioGATTTests {
    /// The PDUs the first central sent to the sensor, from the trace's records.
    private static func requests(_ sim: Simulation) -> [ATTPDU] {
        sim.trace.records.compactMap { record in
            guard case .attPDU(0, Fixture.sensorID, .toPeripheral, let pdu, _) = record.event else { return nil }
            return pdu
        }
    }

    @Test func discoversServicesCharacteristicsAndDescriptorsOverATT() async throws {
        // Given a connected sensor
        let sim = Simulation(seed: 1, strict: true)
        try sim.add(Fixture.sensor())
        let radio = sim.radio

        // When the central discovers everything
        let (sensor, descriptors, battery) = try await sim.run {
            let sensor = try await ConnectedSensor.connect(radio)
            let counter = sensor.characteristics[Fixture.counter]!
            let service = sensor.service
            let descriptors = try await radio.discoverDescriptors(Fixture.sensorID, of: counter, in: service)
            let battery = try await radio.discoverServices(Fixture.sensorID, uuids: [.battery])
            return (sensor, descriptors, battery)
        }

        // Then it finds GAP, GATT, the sensor and battery services, and the counter's CCCD and description
        #expect(sensor.services.map(\.uuid) == [.genericAccess, .genericAttribute, Fixture.service, .battery])
        #expect(sensor.characteristics[Fixture.counter]?.properties == [.read, .write, .writeWithoutResponse, .notify])
        #expect(descriptors.map(\.uuid) == [.clientCharacteristicConfiguration, .characteristicUserDescription])
        #expect(battery.map(\.uuid) == [.battery])
        #expect(
            Self.requests(sim).contains { if case .readByGroupTypeRequest = $0 { true } else { false } })
    }

    @Test func readsAndWritesShortAndLongValues() async throws {
        // Given a connected sensor with MTU 247
        let sim = Simulation(seed: 1, strict: true)
        let peripheral = try sim.add(Fixture.sensor())
        let radio = sim.radio
        let id = Fixture.sensorID
        let long = (0..<400).map { UInt8($0 % 256) }

        // When the central reads and writes, with and without response, short and long values
        let (info, blob, counter, written) = try await sim.run {
            let sensor = try await ConnectedSensor.connect(radio)
            let blob = try await radio.read(id, handle: sensor.handle(Fixture.blob))
            try await radio.write(id, handle: sensor.handle(Fixture.counter), value: [0x34, 0x12], type: .withResponse)
            let counter = try await radio.read(id, handle: sensor.handle(Fixture.counter))
            try await radio.write(id, handle: sensor.handle(Fixture.counter), value: [1, 0], type: .withoutResponse)
            try await radio.write(id, handle: sensor.handle(Fixture.blob), value: long, type: .withResponse)
            let written = try await radio.read(id, handle: sensor.handle(Fixture.blob))
            return (sensor.info, blob, counter, written)
        }

        // Then long values travel whole (Read Blob, Prepared Writes), and the command arrived too
        #expect(info.mtu == 247)
        #expect(blob == (0..<300).map { UInt8($0 % 251) })
        #expect(counter == [0x34, 0x12])
        #expect(written == long)
        #expect(try peripheral.value(of: Fixture.counter, as: UInt16.self) == 1)
        let requests = Self.requests(sim)
        #expect(requests.contains { if case .readBlobRequest = $0 { true } else { false } })
        #expect(requests.contains { if case .prepareWriteRequest = $0 { true } else { false } })
        #expect(requests.contains { if case .writeCommand = $0 { true } else { false } })
    }

    @Test func theMTUIsWhatBothEndsAccept() async throws {
        // Given a central that asks for 23 and one that asks for 517 of a peripheral accepting 247
        let sim = Simulation(seed: 2, strict: true)
        try sim.add(Fixture.sensor())
        try sim.add(Fixture.sensor(id: "C0:FF:EE:00:00:05"))
        sim.radio.linkParameters.requestedMTU = 23
        let second = VirtualRadio(simulation: sim, parameters: LinkParameters(requestedMTU: 517))
        let radio = sim.radio

        // When both connect
        let (small, large) = try await sim.run {
            let small = try await radio.connect(Fixture.sensorID, timeout: .seconds(5))
            let large = try await second.connect("C0:FF:EE:00:00:05", timeout: .seconds(5))
            return (small, large)
        }

        // Then the first keeps 23, the second gets the peripheral's 247
        #expect(small.mtu == 23)
        #expect(large.mtu == 247)
        #expect(small.connectionInterval == .milliseconds(30))
    }

    @Test func notificationsAndIndicationsArriveAsEventsOnceEnabled() async throws {
        // Given a connected sensor and a recorder of events
        let sim = Simulation(seed: 1, strict: true)
        let peripheral = try sim.add(Fixture.sensor())
        let radio = sim.radio
        let events = recordEvents(of: radio, in: sim)
        let sensor = try await sim.run { try await ConnectedSensor.connect(radio) }

        // When a value changes before and after the central enables notifications and indications
        try peripheral.setValue(UInt16(1), of: Fixture.counter)
        try await sim.run {
            try await radio.setNotifications(
                Fixture.sensorID, characteristic: sensor.characteristics[Fixture.counter]!, mode: .notify)
            try await radio.setNotifications(
                Fixture.sensorID, characteristic: sensor.characteristics[Fixture.alarm]!, mode: .indicate)
        }
        try peripheral.setValue(UInt16(2), of: Fixture.counter)
        try peripheral.setValue(UInt8(1), of: Fixture.alarm)
        try await sim.run(for: .milliseconds(200))
        try await sim.run {
            try await radio.setNotifications(
                Fixture.sensorID, characteristic: sensor.characteristics[Fixture.counter]!, mode: .disabled)
        }
        try peripheral.setValue(UInt16(3), of: Fixture.counter)
        try await sim.run(for: .milliseconds(200))

        // Then only the values sent while enabled arrive, after .connected; the indication is confirmed
        let notifications = events.values.compactMap { event -> [UInt8]? in
            if case .notification(_, _, let value) = event { return value }
            return nil
        }
        #expect(notifications == [[2, 0], [1]])
        #expect(events.values.first?.name == "connected")
        #expect(Self.requests(sim).contains(.handleValueConfirmation))
    }

    @Test func aWriteWithResponseTakesAtLeastOneConnectionEvent() async throws {
        // Given a connected sensor on a 50 ms interval
        let sim = Simulation(seed: 1, strict: true)
        try sim.add(Fixture.sensor())
        sim.radio.linkParameters.connectionInterval = .milliseconds(50)
        let radio = sim.radio
        let sensor = try await sim.run { try await ConnectedSensor.connect(radio) }

        // When the central writes with response
        let elapsed = try await sim.run {
            let start = sim.clock.now
            try await radio.write(
                Fixture.sensorID, handle: sensor.handle(Fixture.counter), value: [1, 0], type: .withResponse)
            return start.duration(to: sim.clock.now)
        }

        // Then the answer comes in a later connection event, within two intervals
        #expect(elapsed > .milliseconds(50))
        #expect(elapsed <= .milliseconds(100))
    }

    @Test func rssiOfAConnectedPeripheralFollowsThePathLossModel() async throws {
        // Given a sensor 10 m away and a model without noise
        let sim = Simulation(seed: 1, strict: true)
        try sim.add(Fixture.sensor(position: .metres(10)))
        sim.radio.pathLossModel = PathLossModel(exponent: 2, noiseStandardDeviation: 0)
        let radio = sim.radio

        // When the central reads the RSSI
        let rssi = try await sim.run {
            _ = try await radio.connect(Fixture.sensorID, timeout: .seconds(5))
            return try await radio.readRSSI(Fixture.sensorID)
        }

        // Then it is the measured power less 20 dB per decade of distance
        #expect(rssi == -79)
    }
}
