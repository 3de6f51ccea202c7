import Airlink
import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkProfiles

@Suite struct BatteryServiceTests {
    @Test func theLevelsStreamEachStepUntilNotificationsAreStopped() async throws {
        // Given a battery sensor at 50 % draining 1 % a second
        let sim = Simulation(seed: 4, strict: true)
        let battery = try sim.add(.battery(level: 50, drainEvery: .seconds(1)))
        let service = try await sim.run {
            BatteryService(try await ConnectedDevice.connect(sim, battery.id).connection)
        }

        // When the level is read and the levels streamed for 3.5 s, then notifications are off for 3 s
        let (first, levels) = try await sim.run { (try await service.level(), try await service.levels()) }
        let observed = Observed<BatteryLevel>()
        sim.spawn { for await level in levels { observed.append(level) } }
        let onAt = sim.now.offset
        try await sim.run(for: .milliseconds(3500))
        try await sim.run { try await service.stopNotifications() }
        let offAt = sim.now.offset
        try await sim.run(for: .seconds(3))

        // Then the stream carried each 1 % step while on (one per whole second) and nothing after, and the
        // device was told both times
        let steps = Int(offAt / .seconds(1)) - Int(onAt / .seconds(1))
        #expect(first == BatteryLevel(50))
        #expect(steps >= 3)
        #expect(observed.values == (1...steps).map { BatteryLevel(UInt8(50 - $0)) })
        #expect(service.service.notificationMode(of: .batteryLevel) == .disabled)
        #expect(levels.skippedCount == 0)
    }

    @Test func aRefusedEnableThrowsTheATTErrorAndASecondTrySucceeds() async throws {
        // Given a battery sensor whose next CCCD write is refused with Insufficient Authentication
        let sim = Simulation(seed: 4, strict: true)
        let battery = try sim.add(.battery())
        let service = try await sim.run {
            BatteryService(try await ConnectedDevice.connect(sim, battery.id).connection)
        }
        battery.respond(to: .write(.clientCharacteristicConfiguration), with: .insufficientAuthentication)

        // When the levels are asked for, then asked for again
        let refused = try await sim.run { () async -> AirlinkError? in
            do throws(AirlinkError) {
                _ = try await service.levels()
                return nil
            } catch {
                return error
            }
        }
        let modeAfterRefusal = service.service.notificationMode(of: .batteryLevel)
        _ = try await sim.run { try await service.levels() }

        // Then the first try throws the ATT error (notifications stay off), the second turns them on
        #expect(refused?.code == .attribute)
        if case .att(let error, _)? = refused?.cause {
            #expect(error == .insufficientAuthentication)
        } else {
            Issue.record("the error has no ATT cause: \(String(describing: refused))")
        }
        #expect(modeAfterRefusal == .disabled)
        #expect(service.service.notificationMode(of: .batteryLevel) == .notify)
    }

    @Test func theThermostatsOwnBatteryServiceWorksTheSameWay() async throws {
        // Given a thermostat with its battery at 77 %
        let sim = Simulation(seed: 4, strict: true)
        let thermostat = try sim.add(.thermostat(battery: 77))

        // When its battery is read and streamed through the thermostat variant, and read through the SIG one
        let (level, mode, missing) = try await sim.run {
            let connection = try await ConnectedDevice.connect(sim, thermostat.id).connection
            let service = BatteryService(connection, variant: .thermostat)
            let standard = BatteryService(connection)
            let missing = await #expect(throws: AirlinkError.self) { try await standard.level() }
            let level = try await service.level()
            _ = try await service.levels()
            return (level, service.service.notificationMode(of: .thermostatBatteryLevel), missing)
        }

        // Then the vendor service answers and the SIG one is reported missing
        #expect(level == BatteryLevel(77))
        #expect(mode == .notify)
        #expect(missing?.code == .serviceNotFound)
    }
}
