import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkProfiles

@Suite struct BatteryServiceTests {
    @Test func levelNotificationsReachObserversUntilTurnedOffOrRemoved() async throws {
        // Given a battery sensor at 50 % draining 1 % a second, and a level observer
        let sim = Simulation(seed: 4, strict: true)
        let battery = try sim.add(.battery(level: 50, drainEvery: .seconds(1)))
        let service = try await sim.run {
            BatteryService(try await ConnectedDevice.connect(sim, battery.id).connection)
        }
        let observed = Observed<BatteryLevel>()
        let token = service.addLevelObserver { observed.append($0) }

        // When notifications are on for 3.5 s, then off for 3 s
        let (first, on) = try await sim.run { (try await service.level(), await service.setNotifying(true)) }
        let onAt = sim.now.offset
        try await sim.run(for: .milliseconds(3500))
        let off = try await sim.run { await service.setNotifying(false) }
        let offAt = sim.now.offset
        try await sim.run(for: .seconds(3))
        let countWhileOff = observed.values.count

        // Then the observer heard each 1 % step while on (one per whole second), nothing after, and
        // the property followed
        let steps = Int(offAt / .seconds(1)) - Int(onAt / .seconds(1))
        #expect(first == BatteryLevel(50))
        #expect(on && !off && !service.isNotifying)
        #expect(steps >= 3)
        #expect(observed.values == (1...steps).map { BatteryLevel(UInt8(50 - $0)) })
        #expect(countWhileOff == steps)

        // When notifications come back on after the observer was removed
        service.removeLevelObserver(token)
        _ = try await sim.run { await service.setNotifying(true) }
        try await sim.run(for: .seconds(2))

        // Then the removed observer hears nothing more
        #expect(observed.values.count == steps)
    }

    @Test func aFailedEnableLeavesThePropertyFalseAndCallsTheErrorHandler() async throws {
        // Given a battery sensor whose next CCCD write is refused with Insufficient Authentication
        let sim = Simulation(seed: 4, strict: true)
        let battery = try sim.add(.battery())
        let service = try await sim.run {
            BatteryService(try await ConnectedDevice.connect(sim, battery.id).connection)
        }
        let errors = Observed<AirlinkError>()
        service.setErrorHandler { errors.append($0) }
        battery.respond(to: .write(.clientCharacteristicConfiguration), with: .insufficientAuthentication)

        // When notifications are turned on, then on again
        let first = try await sim.run { await service.setNotifying(true) }
        let second = try await sim.run { await service.setNotifying(true) }

        // Then the first attempt fails (property false, handler told why), the second succeeds
        #expect(first == false)
        #expect(errors.values.count == 1)
        #expect(errors.values.first?.code == .attribute)
        if case .att(let error, _)? = errors.values.first?.cause {
            #expect(error == .insufficientAuthentication)
        } else {
            Issue.record("the handler's error has no ATT cause")
        }
        #expect(second == true && service.isNotifying)
    }

    @Test func theThermostatsOwnBatteryServiceWorksTheSameWay() async throws {
        // Given a thermostat with its battery at 77 %
        let sim = Simulation(seed: 4, strict: true)
        let thermostat = try sim.add(.thermostat(battery: 77))

        // When its battery is read through the thermostat variant, and through the SIG one
        let (level, notifying, missing) = try await sim.run {
            let connection = try await ConnectedDevice.connect(sim, thermostat.id).connection
            let service = BatteryService(connection, variant: .thermostat)
            let standard = BatteryService(connection)
            let missing = await #expect(throws: AirlinkError.self) { try await standard.level() }
            return (try await service.level(), await service.setNotifying(true), missing)
        }

        // Then the vendor service answers and the SIG one is reported missing
        #expect(level == BatteryLevel(77))
        #expect(notifying)
        #expect(missing?.code == .serviceNotFound)
    }
}
