import Airlink
import AirlinkCore
import AirlinkTestKit

/// What the app does in one run of the BlueZ explorer, drawn from the seed (the fixture draws the faults).
///
/// One peripheral (Tests/Fixtures/bluez/chaos-sensor.json): the app may discover first, connects with a
/// reconnection strategy, subscribes to the counter the driver notifies, reads and writes, and may
/// disconnect at the end.
package struct BlueZChaosWorkload: Sendable, CustomStringConvertible {
    /// One GATT operation after the connection, and the pause before it.
    package enum Step: Sendable, Hashable {
        /// Read the counter (`counter`) or the setting.
        case read(counter: Bool, after: Duration)
        /// Write the setting, with or without response.
        case write(value: UInt8, withResponse: Bool, after: Duration)
    }

    /// The peripheral of chaos-sensor.json.
    package static let device: DeviceID = "C0:FF:EE:00:00:C5"
    /// Its service.
    package static let service = BluetoothUUID("C4A05000-0000-4000-8000-00000000C505")!
    /// The counter: readable, notifies.
    package static let counter = BluetoothUUID("C4A05001-0000-4000-8000-00000000C505")!
    /// The setting: readable, writable with and without response.
    package static let setting = BluetoothUUID("C4A05002-0000-4000-8000-00000000C505")!
    /// The counter's object path on the fixture (its declaration handle 0x000B).
    package static let counterPath = FakeBlueZ.devicePath("C0:FF:EE:00:00:C5") + "/service000a/char000b"

    /// The reconnection strategy's model (the oracles read it).
    package var reconnection: ExplorationPlan.Reconnection
    /// The first connect's timeout.
    package var connectTimeout: Duration
    /// Whether the app scans (300 ms) before connecting.
    package var discoverFirst: Bool
    /// Whether it enables the counter's notifications.
    package var subscribe: Bool
    /// The reads and writes, in order.
    package var steps: [Step]
    /// Whether it disconnects at the end (else the run ends with the link as it is).
    package var disconnect: Bool
    /// How often the driver notifies the counter.
    package var notifyEvery: Duration

    /// The workload `seed` names.
    package init(seed: UInt64) {
        var random = ExplorationRandom(seed: seed)
        let timeout = random.milliseconds(500...1500)
        switch random.int(0...2) {
        case 0: reconnection = .none
        case 1:
            reconnection = .linear(wait: random.milliseconds(50...400), attempts: random.int(1...4), timeout: timeout)
        default:
            let initial = random.milliseconds(20...200)
            reconnection = .exponential(
                initialDelay: initial, multiplier: 2, maximumDelay: initial * 4,
                attempts: random.chance(25) ? nil : random.int(1...4), timeout: timeout,
                jitter: random.pick(["none", "full", "decorrelated"]))
        }
        connectTimeout = random.milliseconds(800...2000)
        discoverFirst = random.chance(30)
        subscribe = random.chance(80)
        steps = (0..<random.int(3...10)).map { _ in
            let after = random.milliseconds(50...400)
            return random.chance(50)
                ? .read(counter: random.chance(50), after: after)
                : .write(value: UInt8(random.int(0...255)), withResponse: random.chance(60), after: after)
        }
        disconnect = random.chance(50)
        notifyEvery = random.milliseconds(40...200)
    }

    /// The strategy the model names.
    package var strategy: any ReconnectionStrategy {
        switch reconnection {
        case .none, .whenAdvertising: NoReconnectionStrategy()
        case .linear(let wait, let attempts, let timeout):
            LinearReconnectionStrategy(wait: wait, attempts: attempts, timeout: timeout)
        case .exponential(let initial, let multiplier, let maximum, let attempts, let timeout, let jitter):
            ExponentialBackoffReconnectionStrategy(
                initialDelay: initial, multiplier: multiplier, maximumDelay: maximum, attempts: attempts,
                timeout: timeout,
                jitter: jitter == "none" ? .none : jitter == "full" ? .full : .decorrelated)
        }
    }

    /// `linear, connect 1.2s, discover, subscribe, 5 steps, disconnect, notify every 80ms`.
    package var description: String {
        var parts = [reconnection.name, "connect \(connectTimeout)"]
        if discoverFirst { parts.append("discover") }
        if subscribe { parts.append("subscribe") }
        parts.append("\(steps.count) steps")
        if disconnect { parts.append("disconnect") }
        parts.append("notify every \(notifyEvery)")
        return parts.joined(separator: ", ")
    }
}
