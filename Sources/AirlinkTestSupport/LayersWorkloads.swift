import Airlink
import AirlinkCore
import AirlinkSimulation
import Logging

/// The layers' reference workloads, on the scripted transport: run small by the tests (to check
/// they do what they say) and large by `Benchmarks/LayersBenchmarks` (to measure them).
package enum LayersWorkloads {
    package static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// A logger that discards everything, so that measurements do not time the log.
    package static let quiet = Logger(label: "airlink.benchmark") { _ in SwiftLogNoOpLogHandler() }

    /// A simulation with one thermostat on a scripted transport.
    package static func world(seed: UInt64 = 1, tracing: Bool = false) throws -> (Simulation, ScriptedTransport) {
        let sim = Simulation(seed: seed, strict: true, tracing: tracing, logger: quiet)
        let transport = try ScriptedTransport(
            environment: sim.environment, peripherals: [.thermostat(id: thermostat)], logging: false)
        return (sim, transport)
    }

    // MARK: Full cycle

    /// One full cycle: discover the thermostat by name, connect, discover services, read, write,
    /// disconnect. Call inside `sim.run`.
    package static func fullCycle(manager: DeviceManager, transport: ScriptedTransport) async throws {
        let discovery = try await manager.discover(named: "Thermo.*", timeout: .seconds(5))
        await transport.advertise(thermostat)
        for await event in discovery.events {
            if case .discovered = event { break }
        }
        await discovery.stop()
        let connection = manager.connection(to: thermostat)
        try await connection.connect(timeout: .seconds(1))
        try await connection.services.discover()
        _ = try await connection.services.service(.battery).read(.batteryLevel)
        try await connection.services.service(Thermostat.service).write([0x10, 0x01], to: Thermostat.temperature)
        await connection.disconnect()
    }

    // MARK: Notifications

    /// A connected thermostat with battery notifications enabled, and optionally a deliberately
    /// slow observer of another service (the thermostat's temperature) that takes 1 ms of virtual
    /// time per value.
    package struct NotificationSetup {
        package let sim: Simulation
        package let transport: ScriptedTransport
        package let manager: DeviceManager
        package let battery: DeviceService
        package let slowValues: Recorder<Int>
    }

    package static func notificationSetup(slowObserver: Bool, capacity: Int = 8192) async throws -> NotificationSetup {
        let (sim, transport) = try world()
        let manager = DeviceManager(
            transport: transport, environment: sim.environment,
            configuration: .init(notificationBufferCapacity: capacity))
        let connection = manager.connection(to: thermostat)
        let battery = connection.services.service(.battery)
        let slowValues = Recorder<Int>()
        try await sim.run {
            try await connection.connect(timeout: .seconds(1))
            try await battery.enableNotifications(for: .batteryLevel)
            if slowObserver {
                let service = connection.services.service(Thermostat.service)
                try await service.enableNotifications(for: Thermostat.temperature)
                service.addObserver(for: Thermostat.temperature) { value in
                    // try?: a slow observer; cancelled only when the simulation winds down.
                    try? await sim.clock.sleep(for: .milliseconds(1))
                    slowValues.append(value.bytes.count)
                }
            }
        }
        return NotificationSetup(
            sim: sim, transport: transport, manager: manager, battery: battery, slowValues: slowValues)
    }

    /// Sends `count` battery notifications in bursts of 100 (with one temperature notification per
    /// burst for the slow observer, if any) and waits until an `AsyncSequence` observer of the
    /// battery level received them all; returns how many it received and how many it missed.
    package static func notifications(_ count: Int, setup: NotificationSetup) async throws -> (
        received: Int, missed: Int
    ) {
        let (sim, transport, battery) = (setup.sim, setup.transport, setup.battery)
        let stream = battery.values(of: .batteryLevel)
        return try await sim.run {
            let consumer = LayersWorkloads.consume(stream, count: count, in: sim)
            var sent = 0
            while sent < count {
                let burst = min(100, count - sent)
                await transport.notifyBurst(
                    thermostat, .batteryLevel, count: burst, value: [UInt8(truncatingIfNeeded: sent)])
                await transport.notify(thermostat, Thermostat.temperature, [1, 0])
                sent += burst
                await Task.yield()
            }
            return await consumer.value
        }
    }

    /// Starts a task of `sim` that takes values from `stream` until `count` were received or reported
    /// missed; its value is how many were received and how many missed.
    package static func consume(
        _ stream: CharacteristicValues, count: Int, in sim: Simulation
    ) -> Task<(received: Int, missed: Int), Never> {
        sim.spawn { () -> (received: Int, missed: Int) in
            var (received, missed) = (0, 0)
            for await value in stream {
                received += 1
                missed += value.missedBefore
                if received + missed >= count { break }
            }
            return (received, missed)
        }
    }

    // MARK: A day of losses

    /// 24 virtual hours of a link lost every 5 minutes (every third time the first reconnection
    /// attempt is refused), with linear back-off: 2 s, 3 attempts, 3 s each. Returns the number of
    /// reconnections.
    package static func dayOfLosses(hours: Int = 24) async throws -> Int {
        let (sim, transport) = try world()
        let manager = DeviceManager(transport: transport, environment: sim.environment)
        let connection = manager.connection(
            to: thermostat, reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        let reconnections = Recorder<Int>()
        let events = connection.events()
        sim.spawn {
            for await event in events {
                if case .reconnected = event { reconnections.append(1) }
            }
        }
        try await sim.run { try await connection.connect(timeout: .seconds(1)) }
        let losses = hours * 12
        sim.spawn {
            for index in 0..<losses {
                // try?: a cancelled sleep ends the schedule of losses with the simulation.
                guard (try? await sim.clock.sleep(for: .seconds(300))) != nil else { return }
                if index % 3 == 0 { await transport.failNextConnects(thermostat, 1) }
                await transport.dropLink(thermostat, reason: .supervisionTimeout)
            }
        }
        try await sim.run(for: .seconds(3600 * hours + 60))
        return reconnections.values.count
    }
}
