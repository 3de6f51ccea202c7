import Airlink
import AirlinkCore
import AirlinkSimulation
import Observation
import Testing

/// An inspector and observers in one simulation: two (or more) device managers on one air.
@Suite struct InspectorTests {
    @Test func anObserverListsReadsAndWritesAnInspectorsValues() async throws {
        // Given an inspector with a Double, a writable Bool, a UInt16 and a JSON value
        let world = InspectorWorld()
        let enabled = Box(true)
        try world.inspector.inspect("temperature", options: [.read, .notify], get: { 21.5 })
        try world.inspector.inspect(
            "enabled", options: [.read, .write], get: { enabled.value }, set: { enabled.value = $0 })
        try world.inspector.inspect("count", options: [.read], get: { UInt16(513) })
        try world.inspector.inspect("limits", options: [.read], get: { Limits(low: 18, high: 24) })
        let observer = world.observer()
        let writes = world.inspector.events()

        // When an observer finds it by name, reads every value and writes one
        let (identifiers, temperature, count, limits, before, after) = try await world.sim.run {
            try await world.inspector.start()
            let inspector = try await world.connect(observer)
            let temperature = try await inspector.read("temperature", as: Double.self)
            let count = try await inspector.read("count", as: UInt16.self)
            let limits = try await inspector.read("limits", as: Limits.self)
            let before = try await inspector.read("enabled", as: Bool.self)
            try await inspector.write(false, to: "enabled")
            let after = try await inspector.read("enabled", as: Bool.self)
            return (inspector.identifiers, temperature, count, limits, before, after)
        }

        // Then it sees exactly what was inspected, typed, and the write reached the app
        #expect(identifiers == ["temperature", "enabled", "count", "limits"])
        #expect(temperature == 21.5)
        #expect(count == 513)
        #expect(limits == Limits(low: 18, high: 24))
        #expect(before == true && after == false)
        #expect(enabled.value == false)
        var iterator = writes.makeAsyncIterator()
        #expect(await iterator.next() == .written(identifier: "enabled", value: .bool(false)))
    }

    @Test func anObservablePropertyNotifiesObserversWithoutExtraCode() async throws {
        // Given a room's temperature inspected through its key path, and an observer following it
        let world = InspectorWorld()
        let room = Room()
        try world.inspector.inspect("temperature", of: room, \.temperature, options: [.read, .write, .notify])
        let observer = world.observer()
        let changes = try await world.sim.run {
            try await world.inspector.start()
            let inspector = try await world.connect(observer)
            return (inspector, try await inspector.changes())
        }

        // When the app changes the property twice, and the observer writes it once
        let received = try await world.sim.run {
            room.temperature = 22.0
            try await world.sim.clock.sleep(for: .seconds(1))
            room.temperature = 23.5
            try await world.sim.clock.sleep(for: .seconds(1))
            try await changes.0.write(19.0, to: "temperature")
            var received: [InspectedChange] = []
            for await change in changes.1 {
                received.append(change)
                if received.count == 3 { break }
            }
            return received
        }

        // Then each change arrives with the new value, and the write set the property
        #expect(received.map(\.value) == [.double(22.0), .double(23.5), .double(19.0)])
        #expect(received.allSatisfy { $0.identifier == "temperature" })
        #expect(room.temperature == 19.0)
    }

    @Test func severalInspectorsAndSeveralObserversWorkAtOnce() async throws {
        // Given two inspectors on two adapters, and two observers on two more
        let world = InspectorWorld()
        let second = Inspector(
            name: "Second", transport: VirtualRadio(simulation: world.sim), environment: world.sim.environment)
        let level = Box(UInt8(40))
        try world.inspector.inspect("level", get: { level.value })
        try second.inspect("mode", get: { "eco" })
        let first = world.observer()
        let other = world.observer()

        // When both observers discover every inspector, follow the first one, and its value changes
        let (names, mode, changesA, changesB) = try await world.sim.run {
            try await world.inspector.start()
            try await second.start()
            let found = try await first.discover(timeout: .seconds(2))
            let a = try await world.connect(first)
            let b = try await world.connect(other)
            let secondSeen = try await first.connect(to: found.first { $0.name == "Second" }!.id)
            let mode = try await secondSeen.read("mode", as: String.self)
            let changesA = try await a.changes()
            let changesB = try await b.changes()
            level.value = 41
            try await world.inspector.valueDidChange("level")
            var one = changesA.makeAsyncIterator()
            var two = changesB.makeAsyncIterator()
            return (found.map(\.name).sorted(), mode, await one.next(), await two.next())
        }

        // Then both inspectors were found and both observers heard the change
        #expect(names == ["Second", "Test Server"])
        #expect(mode == "eco")
        #expect(changesA == InspectedChange(identifier: "level", value: .unsigned(41, bits: 8)))
        #expect(changesB == changesA)
    }

    @Test func theInspectorReportsCentralsConnectingSubscribingAndLeaving() async throws {
        // Given an inspector with a notifying value and a listener of the transport's events
        let world = InspectorWorld()
        try world.inspector.inspect("level", get: { UInt8(1) })
        let events = world.app.peripheralEvents()
        let observer = world.observer()

        // When an observer connects, subscribes and disconnects
        try await world.sim.run {
            try await world.inspector.start()
            let inspector = try await world.connect(observer)
            _ = try await inspector.changes()
            await inspector.disconnect()
            await world.inspector.stop()
        }

        // Then the events come in that order, naming the observer's adapter and the characteristic
        var iterator = events.makeAsyncIterator()
        let connected = await iterator.next()
        let subscribed = await iterator.next()
        let left = await iterator.next()
        guard case .centralConnected(let central) = connected,
            case .subscriptionChanged(central, _, let characteristic, .notify) = subscribed,
            case .centralDisconnected(central, _) = left
        else {
            Issue.record("unexpected events \(String(describing: [connected, subscribed, left]))")
            return
        }
        #expect(world.inspector.identifier(of: characteristic) == "level")
    }
}
