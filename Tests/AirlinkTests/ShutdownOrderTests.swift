import Airlink
import AirlinkCore
import AirlinkTestSupport
import Testing

/// The order in which shutting down ends the app's streams: defined, never the hash order of a
/// dictionary (Swift seeds hashing per process, so that order changes between runs of one seed).
@Suite struct ShutdownOrderTests {
    @Test func shutdownEndsValueStreamsInTheOrderTheyWereOpened() async throws {
        // Given 48 value streams of one device, opened over 8 services and 6 characteristics in an
        // order unrelated to the UUIDs (so that no hash order matches it but by a 1-in-48! chance),
        // each consumed by its own task that records when its stream ends
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let manager = world.manager()
        let connection = manager.connection(to: "C0:FF:EE:00:00:01", reconnection: .none)
        let ended = Recorder<Int>()
        for index in 0..<48 {
            let service = BluetoothUUID(UInt16(0xA000 + (index * 5) % 8))
            let characteristic = BluetoothUUID(UInt16(0xB000 + (index * 7) % 6))
            let values = connection.services.service(service).values(of: characteristic)
            world.sim.spawn {
                for await _ in values {}
                ended.append(index)
            }
        }
        try await world.sim.runUntilIdle()

        // When the device manager shuts down
        try await world.sim.run { manager.shutdown() }
        try await world.sim.runUntilIdle()

        // Then every stream ended, in the order it was opened
        #expect(ended.values == Array(0..<48))
    }
}
