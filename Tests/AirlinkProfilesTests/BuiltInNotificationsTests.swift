import AirlinkCore
import AirlinkSimulation
import Testing

@testable import AirlinkProfiles

/// What a subscriber hears from the built-in world on its defaults: every peripheral notifies within the time
/// Docs/SimulatedPeripherals.md gives, the thermostat's drifting room the same way for the same seed.
@Suite struct BuiltInNotificationsTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// The temperatures the built-in thermostat notifies in `duration` of virtual time, with `seed`.
    private static func temperatures(seed: UInt64, for duration: Duration = .seconds(60)) async throws -> [Double] {
        let sim = Simulation(seed: seed, strict: true)
        _ = try sim.add(SimulatedWorld.builtIn)
        let radio = sim.radio
        let session = try await sim.run { try await ProfileSession.connect(radio, thermostat) }
        let temperature = session.characteristic(.thermostatTemperature)
        let received = notifications(of: temperature.valueHandle, from: radio, in: sim)
        try await sim.run { try await radio.setNotifications(thermostat, characteristic: temperature, mode: .notify) }
        try await sim.run(for: duration)
        return try received.values.map { try Temperature(gattBytes: $0).degrees }
    }

    @Test func theBuiltInThermostatNotifiesItsDriftingTemperatureOnItsDefaults() async throws {
        // When a central subscribes to the built-in thermostat's temperature for a virtual minute, twice with one
        // seed and once with another
        let first = try await Self.temperatures(seed: 3)
        let again = try await Self.temperatures(seed: 3)
        let other = try await Self.temperatures(seed: 4)

        // Then it hears at least 30 values, all within 0.5 °C of the set point (21 °C), in steps of at most
        // 0.05 °C; the same seed gives the same values, another seed others
        #expect(first.count >= 30, "\(first)")
        #expect(first.allSatisfy { abs($0 - 21) <= 0.5 + 1e-9 }, "\(first)")
        let steps = zip([21] + first, first).map { abs($1 - $0) }
        #expect(steps.allSatisfy { $0 <= 0.05 + 1e-9 }, "\(steps)")
        #expect(first == again)
        #expect(first != other)
    }

    @Test func everyBuiltInPeripheralNotifiesWithinItsDocumentedTime() async throws {
        // Given the built-in world, and a central subscribed to the thermostat's temperature, the battery's level
        // and the SensorTag's keys, each with its defaults
        let sim = Simulation(seed: 1, strict: true)
        _ = try sim.add(SimulatedWorld.builtIn)
        let radio = sim.radio
        let subscriptions: [(DeviceID, BluetoothUUID)] = [
            (Self.thermostat, .thermostatTemperature), ("B4:77:E2:00:00:02", .batteryLevel),
            (PeripheralSpec.sensorTagID, .sensorTagSimpleKeysData),
        ]
        var received: [Observed<[UInt8]>] = []
        for (device, uuid) in subscriptions {
            let session = try await sim.run { try await ProfileSession.connect(radio, device) }
            let characteristic = session.characteristic(uuid)
            received.append(notifications(of: characteristic.valueHandle, from: radio, in: sim))
            try await sim.run {
                try await radio.setNotifications(device, characteristic: characteristic, mode: .notify)
            }
        }

        // When the documented times pass: a few seconds for the thermostat, 5 s for the SensorTag's first key
        // press, a minute for the battery
        try await sim.run(for: .seconds(5))
        let early = received.map(\.values.count)
        try await sim.run(for: .seconds(56))

        // Then the thermostat and the SensorTag have notified within 5 s, and all three within 61 s
        #expect(early[0] > 0 && early[2] > 0, "\(early)")
        #expect(received.allSatisfy { !$0.values.isEmpty }, "\(received.map(\.values.count))")
    }

    @Test func aThermostatWithoutDriftAtItsSetPointStaysSilent() async throws {
        // Given a thermostat made with the factory's defaults (no drift, as scenarios use it), subscribed to
        let sim = Simulation(seed: 3, strict: true)
        _ = try sim.add(.thermostat())
        let radio = sim.radio
        let session = try await sim.run { try await ProfileSession.connect(radio, Self.thermostat) }
        let temperature = session.characteristic(.thermostatTemperature)
        let received = notifications(of: temperature.valueHandle, from: radio, in: sim)
        try await sim.run {
            try await radio.setNotifications(Self.thermostat, characteristic: temperature, mode: .notify)
        }

        // When a minute passes, then its room stays at the set point and nothing is notified
        try await sim.run(for: .seconds(60))
        #expect(received.values.isEmpty)
    }
}
