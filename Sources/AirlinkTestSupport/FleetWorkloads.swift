import Airlink
import AirlinkCore
import AirlinkSimulation

/// Many peripherals on the virtual radio (the scale curves of Docs/Performance.md): a crowd of advertisers to scan,
/// and a fleet of connected sensors notifying at 10 Hz through the layers. Run small by the tests
/// (to check they do what they say) and large by the benchmarks (to measure how they scale).
package enum FleetWorkloads {
    /// The fleet's service and its counter characteristic.
    package static let service = BluetoothUUID(value: 0xF1EE_0001_0000_1000_8000_0080_5F9B_34FB)
    package static let counter = BluetoothUUID(value: 0xF1EE_0002_0000_1000_8000_0080_5F9B_34FB)

    /// The address of fleet member `index` (0–0xFFFFFF).
    package static func address(_ index: Int) -> DeviceID {
        DeviceID(BDAddress(value: 0xF1EE_0000_0000 | UInt64(index)))
    }

    /// A sensor whose 16-bit counter goes up by one every 100 ms (10 Hz) and notifies subscribers;
    /// it advertises every 100 ms, between 1 and 20 m away.
    package static func sensor(_ index: Int) -> PeripheralSpec {
        PeripheralSpec(name: "Fleet \(index)", id: address(index), position: .metres(1 + Double(index % 20))) {
            Advertising(every: .milliseconds(100)) { LocalName("Fleet \(index)") }
            Service(service) {
                Characteristic(counter, properties: [.read, .notify], value: UInt16(0))
                    .updates(every: .milliseconds(100)) { $0 &+ 1 }
            }
        }
    }

    /// Scans with duplicates for `duration` of virtual time and counts the advertisements heard.
    package static func scan(_ sim: Simulation, for duration: Duration) async throws -> Int {
        let radio = sim.radio
        let events = radio.events()
        let counter = sim.spawn { () -> Int in
            var count = 0
            for await event in events { if case .advertisement = event { count += 1 } }
            return count
        }
        try await sim.run { try await radio.startScan(ScanFilter(allowDuplicates: true)) }
        try await sim.run(for: duration)
        await radio.stopScan()
        radio.shutdown()
        return try await sim.run { await counter.value }
    }

    /// A simulation with `count` fleet sensors, a device manager on its radio, every sensor
    /// connected with its counter's notifications on.
    package struct Fleet: Sendable {
        package let sim: Simulation
        package let manager: DeviceManager
        package let services: [DeviceService]
    }

    /// Adds `count` sensors, connects to each through the layers and turns notifications on.
    ///
    /// All at once: every sensor is connected concurrently, then every sensor's notifications are
    /// turned on concurrently, so setting up takes about the same virtual time at any size. One
    /// after the other, each connection took a few hundred virtual milliseconds while the sensors
    /// connected before it notified, so the set-up of `n` sensors grew with `n²` (1,000 sensors: about
    /// 1.5 million notifications nobody measured, minutes of the benchmark's time per sample).
    package static func connectedFleet(_ count: Int, seed: UInt64 = 1, tracing: Bool = false) async throws -> Fleet {
        let sim = Simulation(seed: seed, strict: true, tracing: tracing, logger: LayersWorkloads.quiet)
        for index in 0..<count { try sim.add(sensor(index)) }
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment)
        let connections = (0..<count).map { manager.connection(to: address($0)) }
        let services = connections.map { $0.services.service(service) }
        try await sim.run {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for connection in connections { group.addTask { try await connection.connect(timeout: .seconds(5)) } }
                try await group.waitForAll()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for each in services { group.addTask { _ = try await each.enableNotifications(for: counter) } }
                try await group.waitForAll()
            }
        }
        return Fleet(sim: sim, manager: manager, services: services)
    }

    /// Lets the fleet notify for `duration` of virtual time; returns the values every observer
    /// received (about 10 a second per sensor) and how many were reported missed.
    package static func notify(_ fleet: Fleet, for duration: Duration) async throws -> (received: Int, missed: Int) {
        let sim = fleet.sim
        let tally = Recorder<(received: Int, missed: Int)>()
        let streams = fleet.services.map { $0.values(of: counter) }
        let observers = streams.map { stream in
            sim.spawn {
                var (received, missed) = (0, 0)
                for await value in stream {
                    received += 1
                    missed += value.missedBefore
                }
                tally.append((received, missed))
            }
        }
        try await sim.run(for: duration)
        for observer in observers { observer.cancel() }
        try await sim.run { for observer in observers { await observer.value } }
        return tally.values.reduce(into: (0, 0)) { total, each in
            total.received += each.received
            total.missed += each.missed
        }
    }
}
