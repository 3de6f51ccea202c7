import Airlink
import AirlinkCore
import AirlinkTestKit

/// What the app does in one run of the BlueZ explorer, drawn from the seed (the fixture draws the faults).
///
/// One or two peripherals of Tests/Fixtures/bluez/chaos-sensor.json, each used by a client of its own at
/// once: the app may discover first, then each client connects with a reconnection strategy, subscribes to
/// the counter the driver notifies, reads, writes, may unsubscribe or forget the device in the registry,
/// and may disconnect at the end. When bluetoothd restarts, the app opens a new transport and device
/// manager and carries on with the devices its registry knows (``BlueZChaosRun``).
package struct BlueZChaosWorkload: Sendable, CustomStringConvertible {
    /// One step of a client after its connection, and the pause before it.
    package enum Step: Sendable, Hashable {
        /// Read the counter (`counter`) or the setting.
        case read(counter: Bool, after: Duration)
        /// Write the setting, with or without response.
        case write(value: UInt8, withResponse: Bool, after: Duration)
        /// Disable the counter's notifications (when subscribed): the app wants no more values.
        case unsubscribe(after: Duration)
        /// Forget the device in the app's registry (the link stays).
        case forget(after: Duration)

        /// The pause before the step.
        package var after: Duration {
            switch self {
            case .read(_, let after), .write(_, _, let after), .unsubscribe(let after), .forget(let after): after
            }
        }
    }

    /// One peripheral of chaos-sensor.json: its address, its service and two characteristics.
    package struct Peripheral: Sendable, Hashable {
        /// Its address.
        package var device: DeviceID
        /// Its service.
        package var service: BluetoothUUID
        /// The counter: readable, notifies.
        package var counter: BluetoothUUID
        /// The setting: readable, writable with and without response.
        package var setting: BluetoothUUID

        /// The counter's object path on the fixture (its declaration handle 0x000B).
        package var counterPath: String { FakeBlueZ.devicePath("\(device)") + "/service000a/char000b" }

        /// The peripheral numbered `n` (5, 6): address `C0:FF:EE:00:00:Cn`, UUIDs `C4A0500x-…-00000000C50n`.
        init(_ n: Int) {
            device = DeviceID("C0:FF:EE:00:00:C\(n)")!
            let uuid = { (x: Int) in BluetoothUUID("C4A0500\(x)-0000-4000-8000-00000000C50\(n)")! }
            (service, counter, setting) = (uuid(0), uuid(1), uuid(2))
        }
    }

    /// What the app does with one peripheral.
    package struct Client: Sendable {
        /// The peripheral.
        package var peripheral: Peripheral
        /// The reconnection strategy's model (the oracles read it).
        package var reconnection: ExplorationPlan.Reconnection
        /// The first connect's timeout.
        package var connectTimeout: Duration
        /// Whether it enables the counter's notifications.
        package var subscribe: Bool
        /// The steps, in order.
        package var steps: [Step]
        /// Whether it disconnects at the end (else the run ends with the link as it is).
        package var disconnect: Bool
        /// How often the driver notifies the counter.
        package var notifyEvery: Duration
    }

    /// The peripherals of chaos-sensor.json, in its order.
    package static let peripherals = [Peripheral(5), Peripheral(6)]

    /// Whether the app scans (300 ms) before connecting.
    package var discoverFirst: Bool
    /// The clients, one per peripheral used.
    package var clients: [Client]

    /// The workload `seed` names.
    package init(seed: UInt64) {
        var random = ExplorationRandom(seed: seed)
        discoverFirst = random.chance(30)
        clients = Self.peripherals.prefix(random.int(1...Self.peripherals.count)).map { peripheral in
            Self.client(peripheral, &random)
        }
    }

    private static func client(_ peripheral: Peripheral, _ random: inout ExplorationRandom) -> Client {
        let timeout = random.milliseconds(500...1500)
        let reconnection: ExplorationPlan.Reconnection
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
        let connectTimeout = random.milliseconds(800...2000)
        let subscribe = random.chance(80)
        let steps: [Step] = (0..<random.int(3...10)).map { _ in
            let after = random.milliseconds(50...400)
            switch random.int(0...19) {
            case 0: return .unsubscribe(after: after)
            case 1: return .forget(after: after)
            case 2...10: return .read(counter: random.chance(50), after: after)
            default: return .write(value: UInt8(random.int(0...255)), withResponse: random.chance(60), after: after)
            }
        }
        return Client(
            peripheral: peripheral, reconnection: reconnection, connectTimeout: connectTimeout, subscribe: subscribe,
            steps: steps, disconnect: random.chance(50), notifyEvery: random.milliseconds(40...200))
    }

    /// `discover; C5: linear, connect 1.2s, subscribe, 5 steps (1 unsubscribe), disconnect, notify every 80ms`.
    package var description: String {
        let clients = clients.map { client in
            var parts = [client.reconnection.name, "connect \(client.connectTimeout)"]
            if client.subscribe { parts.append("subscribe") }
            let special = client.steps.filter { step in
                switch step {
                case .unsubscribe, .forget: true
                default: false
                }
            }
            parts.append(
                "\(client.steps.count) steps" + (special.isEmpty ? "" : " (\(special.count) unsubscribe/forget)"))
            if client.disconnect { parts.append("disconnect") }
            parts.append("notify every \(client.notifyEvery)")
            return "\("\(client.peripheral.device)".suffix(2)): " + parts.joined(separator: ", ")
        }
        return (discoverFirst ? ["discover"] : []).joined() + (discoverFirst ? "; " : "")
            + clients.joined(separator: "; ")
    }
}

extension BlueZChaosWorkload.Client {
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
}
