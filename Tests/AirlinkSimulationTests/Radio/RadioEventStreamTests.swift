import AirlinkCore
import AirlinkSimulation
import Testing

/// The virtual radio's event streams end when the radio shuts down, for subscribers before and after.
@Suite struct RadioEventStreamTests {
    @Test func aSubscriberAfterShutdownGetsAnEndedStream() async throws {
        // Given a radio that shut down
        let sim = Simulation(seed: 1, strict: true)
        let radio = sim.radio
        radio.shutdown()

        // When someone subscribes to its events and to its peripheral role's events
        let counts = try await sim.run {
            var events = 0
            for await _ in radio.events() { events += 1 }
            var peripheralEvents = 0
            for await _ in radio.peripheralEvents() { peripheralEvents += 1 }
            return (events, peripheralEvents)
        }

        // Then both streams have ended, empty (they do not leave the subscriber waiting)
        #expect(counts == (0, 0))
    }

    @Test func shutdownEndsThePeripheralRolesStreams() async throws {
        // Given a subscriber of the radio's peripheral role
        let sim = Simulation(seed: 1, strict: true)
        let radio = sim.radio
        let events = radio.peripheralEvents()

        // When the radio shuts down
        let count = try await sim.run {
            radio.shutdown()
            var count = 0
            for await _ in events { count += 1 }
            return count
        }

        // Then the stream ends
        #expect(count == 0)
    }
}
