import AirlinkCore
import AirlinkSimulation
import Testing

/// A central that asks for what a peripheral cannot do gets the ATT error a real peripheral sends.
@Suite struct RadioATTErrorTests {
    private func attempt(
        _ body: @escaping @Sendable (VirtualRadio, ConnectedSensor) async throws -> Void
    ) async throws -> AirlinkError? {
        let sim = Simulation(seed: 1, strict: true)
        try sim.add(Fixture.sensor())
        let radio = sim.radio
        return try await sim.run { () -> AirlinkError? in
            let sensor = try await ConnectedSensor.connect(radio)
            do {
                try await body(radio, sensor)
                return nil
            } catch let error as AirlinkError {
                return error
            }
        }
    }

    @Test func writingTooManyBytesForTheTypeIsInvalidAttributeValueLength() async throws {
        // When the central writes 3 bytes to a UInt16 characteristic
        let error = try await attempt { radio, sensor in
            try await radio.write(
                Fixture.sensorID, handle: sensor.handle(Fixture.counter), value: [1, 2, 3], type: .withResponse)
        }
        // Then the peripheral answers Invalid Attribute Value Length, with the handle
        #expect(error?.code == .attribute)
        #expect(error?.attError == .invalidAttributeValueLength)
    }

    @Test func writingMoreThan512BytesIsInvalidAttributeValueLength() async throws {
        let error = try await attempt { radio, sensor in
            try await radio.write(
                Fixture.sensorID, handle: sensor.handle(Fixture.blob), value: [UInt8](repeating: 1, count: 600),
                type: .withResponse)
        }
        #expect(error?.attError == .invalidAttributeValueLength)
    }

    @Test func readingWhatIsNotReadableIsReadNotPermitted() async throws {
        let error = try await attempt { radio, sensor in
            _ = try await radio.read(Fixture.sensorID, handle: sensor.handle(Fixture.secret))
        }
        #expect(error?.attError == .readNotPermitted)
        #expect(error?.cause == .att(.readNotPermitted, handle: ATTHandle(0x0016)))
    }

    @Test func enablingNotificationsOnAnIndicateOnlyCharacteristicIsValueNotAllowed() async throws {
        let error = try await attempt { radio, sensor in
            try await radio.setNotifications(
                Fixture.sensorID, characteristic: sensor.characteristics[Fixture.alarm]!, mode: .notify)
        }
        #expect(error?.attError == .valueNotAllowed)
    }

    @Test func enablingNotificationsOnACharacteristicWithoutCCCDIsNotSupported() async throws {
        let error = try await attempt { radio, sensor in
            try await radio.setNotifications(
                Fixture.sensorID, characteristic: sensor.characteristics[Fixture.secret]!, mode: .notify)
        }
        #expect(error?.code == .operationNotSupported)
    }

    @Test func aWriteWithoutResponseLongerThanMTUMinus3IsRefusedLocally() async throws {
        let error = try await attempt { radio, sensor in
            try await radio.write(
                Fixture.sensorID, handle: sensor.handle(Fixture.blob), value: [UInt8](repeating: 0, count: 245),
                type: .withoutResponse)
        }
        #expect(error?.code == .invalidArgument)
    }
}
