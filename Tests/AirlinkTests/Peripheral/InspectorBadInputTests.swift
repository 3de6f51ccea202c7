import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

/// Bad input to an inspector: typed errors for the app, ATT errors for centrals, nothing changed.
@Suite struct InspectorBadInputTests {
    @Test func inspectingRefusesDuplicateEmptyAndOversizedIdentifiersAndValues() async throws {
        // Given an inspector with one value
        let world = InspectorWorld()
        try world.inspector.inspect("level", get: { UInt8(1) })

        // When values are inspected with bad identifiers, options or sizes, Then each is refused, typed
        func code(_ body: () throws -> Void) -> AirlinkError.Code? {
            do {
                try body()
                return nil
            } catch let error as AirlinkError {
                return error.code
            } catch { return .cancelled }
        }
        #expect(code { try world.inspector.inspect("level", get: { UInt8(2) }) } == .invalidArgument)
        #expect(code { try world.inspector.inspect("", get: { UInt8(2) }) } == .invalidArgument)
        let long = String(repeating: "x", count: 513)
        #expect(code { try world.inspector.inspect(long, get: { UInt8(2) }) } == .invalidArgument)
        #expect(code { try world.inspector.inspect(String(repeating: "x", count: 512), get: { UInt8(2) }) } == nil)
        #expect(
            code { try world.inspector.inspect("blob", get: { [UInt8](repeating: 0, count: 513) }) } == .invalidArgument
        )
        #expect(code { try world.inspector.inspect("w", options: [.write], get: { true }) } == .invalidArgument)
        #expect(code { try world.inspector.inspect("none", options: [], get: { true }) } == .invalidArgument)
        #expect(world.inspector.identifiers == ["level", String(repeating: "x", count: 512)])

        // And once running, nothing more can be inspected; a name too long for an advertisement is refused
        try await world.sim.run { try await world.inspector.start() }
        #expect(code { try world.inspector.inspect("late", get: { true }) } == .operationInProgress)
        let tooLong = Inspector(
            name: "A name far too long to advertise", transport: VirtualRadio(simulation: world.sim),
            environment: world.sim.environment)
        let startError = try await world.sim.run { () async -> AirlinkError? in
            do throws(AirlinkError) {
                try await tooLong.start()
                return nil
            } catch { return error }
        }
        #expect(startError?.code == .invalidArgument)
    }

    @Test func writesOfTheWrongTypeGetATTErrorsAndChangeNothing() async throws {
        // Given writable values of several types and an observer connected to them
        let world = InspectorWorld()
        let temperature = Box(21.5)
        let enabled = Box(true)
        let label = Box("kitchen")
        try world.inspector.inspect(
            "temperature", options: [.read, .write], get: { temperature.value },
            set: { temperature.value = $0 })
        try world.inspector.inspect(
            "enabled", options: [.read, .write], get: { enabled.value }, set: { enabled.value = $0 })
        try world.inspector.inspect("label", options: [.read, .write], get: { label.value }, set: { label.value = $0 })
        try world.inspector.inspect(
            "limits", options: [.read, .write], get: { Limits(low: 1, high: 2) }, set: { _ in })
        try world.inspector.inspect("readOnly", options: [.read], get: { UInt8(5) })
        let refusals = world.inspector.events()
        let observer = world.observer()

        // When it writes bytes of the wrong length or content, a typed value of another type, and a read-only value
        let errors = try await world.sim.run { () async throws -> [AirlinkError?] in
            try await world.inspector.start()
            let inspector = try await world.connect(observer)
            func attempt(_ body: () async throws -> Void) async -> AirlinkError? {
                do {
                    try await body()
                    return nil
                } catch let error as AirlinkError {
                    return error
                } catch { return AirlinkError(.cancelled, "\(error)") }
            }
            return [
                await attempt { try await inspector.writeBytes([1, 2, 3], to: "temperature") },
                await attempt { try await inspector.writeBytes([2], to: "enabled") },
                await attempt { try await inspector.writeBytes([0xFF, 0xFE], to: "label") },
                await attempt { try await inspector.writeBytes(Array("{not json".utf8), to: "limits") },
                await attempt { try await inspector.writeBytes(Array(#"{"low":1}"#.utf8), to: "limits") },
                await attempt { try await inspector.write("warm", to: "temperature") },
                await attempt { try await inspector.write(UInt8(6), to: "readOnly") },
                await attempt { try await inspector.write(true, to: "missing") },
            ]
        }

        // Then centrals get ATT errors, the app typed errors, and no value changed
        #expect(errors[0]?.attError == .invalidAttributeValueLength)
        #expect(errors[1]?.attError == .valueNotAllowed)
        #expect(errors[2]?.attError == .valueNotAllowed)
        #expect(errors[3]?.attError == .valueNotAllowed)
        #expect(errors[4]?.attError == .valueNotAllowed)
        #expect(errors[5]?.code == .invalidArgument)
        #expect(errors[6]?.code == .operationNotSupported)
        #expect(errors[7]?.code == .characteristicNotFound)
        #expect(temperature.value == 21.5 && enabled.value == true && label.value == "kitchen")
        var iterator = refusals.makeAsyncIterator()
        #expect(await iterator.next() == .refused(identifier: "temperature", error: .invalidAttributeValueLength))
    }

    @Test func aRawWriteToAReadOnlyValueGetsWriteNotPermitted() async throws {
        // Given a read-only value and a bare central (no Airlink layers to stop it early)
        let world = InspectorWorld()
        let level = Box(UInt8(5))
        try world.inspector.inspect("level", options: [.read], get: { level.value })
        let raw = VirtualRadio(simulation: world.sim)

        // When the central writes its value handle
        let error = try await world.sim.run { () async throws -> AirlinkError? in
            try await world.inspector.start()
            _ = try await raw.connect(world.app.address, timeout: .seconds(5))
            let service = try #require(
                try await raw.discoverServices(world.app.address, uuids: [InspectorLayout.serviceUUID]).first)
            let characteristic = try #require(
                try await raw.discoverCharacteristics(world.app.address, of: service, uuids: nil).first)
            do throws(AirlinkError) {
                try await raw.write(
                    world.app.address, handle: characteristic.valueHandle, value: [9], type: .withResponse)
                return nil
            } catch { return error }
        }

        // Then it is refused with Write Not Permitted and the value is unchanged
        #expect(error?.attError == .writeNotPermitted)
        #expect(level.value == 5)
    }

    @Test func aCentralThatLeavesInTheMiddleOfALongWriteChangesNothing() async throws {
        // Given a writable String and an observer whose long write will never be executed
        let world = InspectorWorld()
        let label = Box("kitchen")
        try world.inspector.inspect("label", options: [.read, .write], get: { label.value }, set: { label.value = $0 })
        let observer = world.observer()
        let long = String(repeating: "a", count: 400)

        // When the inspector's side never answers the Execute Write and the link drops after a second
        let error = try await world.sim.run { () async throws -> AirlinkError? in
            try await world.inspector.start()
            let inspector = try await world.connect(observer)
            let peripheral = try #require(world.sim.peripheral(world.app.address))
            peripheral.neverRespond(to: .opcode(.executeWriteRequest))
            peripheral.schedule(.dropLink(.remoteUserTerminated), after: .seconds(1))
            do throws(AirlinkError) {
                try await inspector.write(long, to: "label")
                return nil
            } catch { return error }
        }

        // Then the write failed with the lost link and the value did not change
        #expect(error?.code == .linkLost)
        #expect(label.value == "kitchen")
    }

    @Test func aLongWriteOfTheWrongContentIsRefusedWhenItExecutes() async throws {
        // Given a writable String
        let world = InspectorWorld()
        let label = Box("kitchen")
        try world.inspector.inspect("label", options: [.read, .write], get: { label.value }, set: { label.value = $0 })
        let observer = world.observer()

        // When an observer writes 400 bytes that are not UTF-8 (a prepared write, executed at once)
        let error = try await world.sim.run { () async throws -> AirlinkError? in
            try await world.inspector.start()
            let inspector = try await world.connect(observer)
            do throws(AirlinkError) {
                try await inspector.writeBytes([UInt8](repeating: 0xFF, count: 400), to: "label")
                return nil
            } catch { return error }
        }

        // Then the Execute Write is refused with Value Not Allowed and nothing changed
        #expect(error?.attError == .valueNotAllowed)
        #expect(label.value == "kitchen")
    }
}
