import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

/// Values the inspector keeps itself (typed at run time), and values written as text.
@Suite struct InspectorStoredValueTests {
    @Test func storedValuesAreReadWrittenByCentralsAndNotifiedWhenTheAppSetsThem() async throws {
        // Given an inspector keeping a Double (read, notify) and a Bool (read, write), and an observer
        let world = InspectorWorld()
        try world.inspector.inspect("temperature", initialValue: .double(21.5), options: [.read, .notify])
        try world.inspector.inspect("enabled", initialValue: .bool(true), options: [.read, .write])
        let observer = world.observer()

        // When the observer reads both, follows changes, the app sets the temperature and the observer writes enabled
        let (first, change, enabledAfter) = try await world.sim.run {
            () async throws -> (InspectedValue, InspectedChange?, InspectedValue) in
            try await world.inspector.start()
            let inspector = try await world.connect(observer)
            let first = try await inspector.read("temperature")
            let changes = try await inspector.changes()
            try await world.inspector.setValue(.double(22.25), for: "temperature")
            var iterator = changes.makeAsyncIterator()
            let change = await iterator.next()
            try await inspector.write(false, to: "enabled")
            let enabledAfter = try await inspector.read("enabled")
            await inspector.disconnect()
            return (first, change, enabledAfter)
        }

        // Then the observer saw the initial value, the change, and its own write, which the inspector keeps
        #expect(first == .double(21.5))
        #expect(change == InspectedChange(identifier: "temperature", value: .double(22.25)))
        #expect(enabledAfter == .bool(false))
        #expect(world.inspector.value(of: "enabled") == .bool(false))
        #expect(world.inspector.value(of: "temperature") == .double(22.25))
    }

    @Test func aKeptValueOneCentralWritesIsNotifiedToTheOthers() async throws {
        // Given a kept, writable, notifying value and two observers, the second following it
        let world = InspectorWorld()
        try world.inspector.inspect("mode", initialValue: .unsigned(1, bits: 8), options: [.read, .write, .notify])
        let (writer, follower) = (world.observer(), world.observer())

        // When the first observer writes it
        let change = try await world.sim.run { () async throws -> InspectedChange? in
            try await world.inspector.start()
            let following = try await world.connect(follower)
            let changes = try await following.changes()
            let writing = try await world.connect(writer)
            try await writing.write(UInt8(3), to: "mode")
            var iterator = changes.makeAsyncIterator()
            let change = await iterator.next()
            await writing.disconnect()
            await following.disconnect()
            return change
        }

        // Then the second observer is told, and the inspector keeps the new value
        #expect(change == InspectedChange(identifier: "mode", value: .unsigned(3, bits: 8)))
        #expect(world.inspector.value(of: "mode") == .unsigned(3, bits: 8))
    }

    @Test func settingAStoredValueRefusesOtherTypesUnknownIdentifiersAndClosureValues() async throws {
        // Given a kept UInt8 and a value read from a closure
        let world = InspectorWorld()
        try world.inspector.inspect("level", initialValue: .unsigned(80, bits: 8))
        try world.inspector.inspect("computed", get: { 1.5 })

        // When the app sets a value of another type, an unknown identifier and the closure's value
        let errors = try await world.sim.run { () async -> [AirlinkError?] in
            func attempt(_ value: InspectedValue, _ identifier: String) async -> AirlinkError? {
                do throws(AirlinkError) {
                    try await world.inspector.setValue(value, for: identifier)
                    return nil
                } catch { return error }
            }
            return [
                await attempt(.signed(80, bits: 8), "level"), await attempt(.bool(true), "missing"),
                await attempt(.double(2), "computed"), await attempt(.unsigned(81, bits: 8), "level"),
            ]
        }

        // Then the first three are refused with messages naming the problem, and only the last one lands
        #expect(errors.map { $0?.code } == [.invalidArgument, .invalidArgument, .invalidArgument, nil])
        #expect(errors[0]?.message.contains("UInt8") == true)
        #expect(world.inspector.value(of: "level") == .unsigned(81, bits: 8))
        #expect(world.inspector.value(of: "computed") == nil)
    }

    @Test(arguments: [
        ("bool", "true", InspectedValue.bool(true)), ("uint8", "255", .unsigned(255, bits: 8)),
        ("UInt16", "513", .unsigned(513, bits: 16)), ("int8", "-128", .signed(-128, bits: 8)),
        ("int64", "-9000000000", .signed(-9_000_000_000, bits: 64)), ("double", "21.5", .double(21.5)),
        ("string", "kitchen", .string("kitchen")), ("bytes", "0x0a0B", .bytes([0x0A, 0x0B])),
        ("json", #"{"a":1}"#, .json(Array(#"{"a":1}"#.utf8))),
    ])
    func textParsesAsItsType(type: String, text: String, expected: InspectedValue) throws {
        // Given a type name and a text, When parsed, Then the value is the expected one
        #expect(try InspectedValue(parsing: text, as: InspectedType(named: type)) == expected)
    }

    @Test(arguments: [
        ("bool", "yes"), ("uint8", "256"), ("uint8", "-1"), ("int8", "128"), ("double", "warm"), ("double", "inf"),
        ("bytes", "abc"), ("bytes", "zz"), ("json", "{"),
    ])
    func badTextIsRefusedSayingWhatWasExpected(type: String, text: String) throws {
        // Given a text that is not a value of the type, When parsed, Then a typed error names the text
        let error = #expect(throws: AirlinkError.self) {
            try InspectedValue(parsing: text, as: InspectedType(named: type))
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("\"\(text)\"") == true)
    }

    @Test func unknownTypeNamesListTheNamesThereAre() {
        // When a type name is unknown, Then the error lists the known ones
        let error = #expect(throws: AirlinkError.self) { try InspectedType(named: "float") }
        #expect(error?.message.contains("uint16") == true)
    }
}
