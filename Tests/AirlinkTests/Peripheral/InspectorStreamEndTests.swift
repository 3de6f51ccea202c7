import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

/// The inspector's streams end when their source does: the observer's changes at `disconnect()`,
/// the inspector's events when the inspector is released.
@Suite struct InspectorStreamEndTests {
    @Test func everyChangesStreamGetsEachChangeOnceAndEndsAtDisconnect() async throws {
        // Given an observer with two streams of an inspector's changes
        let world = InspectorWorld()
        let room = Room()
        try world.inspector.inspect("temperature", of: room, \.temperature, options: [.read, .notify])
        let observer = world.observer()
        let (first, second) = try await world.sim.run {
            try await world.inspector.start()
            let inspector = try await world.connect(observer)
            let first = try await inspector.changes()
            let second = try await inspector.changes()

            // When the value changes once and the observer disconnects
            room.temperature = 22.0
            try await world.sim.clock.sleep(for: .seconds(1))
            await inspector.disconnect()
            var firstChanges: [InspectedChange] = []
            for await change in first { firstChanges.append(change) }
            var secondChanges: [InspectedChange] = []
            for await change in second { secondChanges.append(change) }
            return (firstChanges, secondChanges)
        }

        // Then each stream got the change once, then ended
        let change = InspectedChange(identifier: "temperature", value: .double(22.0))
        #expect(first == [change])
        #expect(second == [change])
    }

    @Test func theInspectorsEventsEndWhenItIsReleased() async throws {
        // Given a subscriber of an inspector's events
        let sim = Simulation(seed: 1, strict: true)
        var inspector: Inspector? = Inspector(name: "Gone", transport: sim.radio, environment: sim.environment)
        let events = inspector!.events()

        // When the inspector is released
        inspector = nil

        // Then the stream ends (it does not leave the subscriber waiting)
        let count = try await sim.run {
            var count = 0
            for await _ in events { count += 1 }
            return count
        }
        #expect(count == 0)
        #expect(inspector == nil)
    }
}
