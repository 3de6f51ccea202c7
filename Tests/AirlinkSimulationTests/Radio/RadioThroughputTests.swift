import AirlinkCore
import AirlinkSimulation
import Testing

/// The timing model against Nordic's published notification throughput (MTU 247, data length 251,
/// connection event length extension): ≈790 kbit/s on LE 1M, ≈1.4 Mbit/s on LE 2M.
@Suite struct RadioThroughputTests {
    /// Notification payload throughput in kbit/s of virtual time for `count` 244-byte notifications.
    static func throughput(phy: PHY, count: Int = 2_000) async throws -> Double {
        let sim = Simulation(seed: 1, strict: true, tracing: false)
        let peripheral = try sim.add(Fixture.sensor())
        sim.radio.linkParameters = LinkParameters(phy: phy, dataLength: 251, requestedMTU: 247)
        let radio = sim.radio
        let events = radio.events()
        let elapsed = try await sim.run {
            let sensor = try await ConnectedSensor.connect(radio)
            try await radio.setNotifications(
                Fixture.sensorID, characteristic: sensor.characteristics[Fixture.stream]!, mode: .notify)
            let start = sim.clock.now
            try peripheral.burstNotifications(of: Fixture.stream, count: count)
            var received = 0
            for await event in events {
                if case .notification(_, _, let value) = event, value.count == 244 { received += 1 }
                if received == count { break }
            }
            return start.duration(to: sim.clock.now)
        }
        let seconds = Double(elapsed.nanoseconds) / 1e9
        return Double(count * 244 * 8) / seconds / 1_000
    }

    @Test func notificationThroughputOnLE1MIsAbout790kbps() async throws {
        let kbps = try await Self.throughput(phy: .le1M)
        print("LE 1M notification throughput: \(kbps) kbit/s")
        #expect(abs(kbps - 790) / 790 < 0.05)
    }

    @Test func notificationThroughputOnLE2MIsAbout1400kbps() async throws {
        let kbps = try await Self.throughput(phy: .le2M)
        print("LE 2M notification throughput: \(kbps) kbit/s")
        #expect(abs(kbps - 1_400) / 1_400 < 0.05)
    }

    @Test func withoutDataLengthExtensionThroughputDrops() async throws {
        // Given the same link with 27-byte LL packets, the 247-byte PDUs take ten fragments each
        let sim = Simulation(seed: 1, strict: true, tracing: false)
        _ = sim
        let fast = try await Self.throughput(phy: .le1M, count: 200)
        let slowSim = try await Self.throughputWithDataLength27()
        #expect(slowSim < fast * 0.8)
    }

    static func throughputWithDataLength27() async throws -> Double {
        let sim = Simulation(seed: 1, strict: true, tracing: false)
        let peripheral = try sim.add(Fixture.sensor())
        sim.radio.linkParameters = LinkParameters(phy: .le1M, dataLength: 27, requestedMTU: 247)
        let radio = sim.radio
        let events = radio.events()
        let count = 200
        let elapsed = try await sim.run {
            let sensor = try await ConnectedSensor.connect(radio)
            try await radio.setNotifications(
                Fixture.sensorID, characteristic: sensor.characteristics[Fixture.stream]!, mode: .notify)
            let start = sim.clock.now
            try peripheral.burstNotifications(of: Fixture.stream, count: count)
            var received = 0
            for await event in events {
                if case .notification = event { received += 1 }
                if received == count { break }
            }
            return start.duration(to: sim.clock.now)
        }
        return Double(count * 244 * 8) / (Double(elapsed.nanoseconds) / 1e9) / 1_000
    }
}
