import Airlink
import AirlinkCore

/// One run the explorer draws from a seed: a world, a workload and a fault schedule, written as a scenario.
///
/// A plan is data the shrinker can cut down (``ExplorationShrinker``) and text a person can read: its
/// ``yaml`` is a scenario file that `airlink simulate FILE` runs, and ``scenario()`` parses that text, so
/// the explorer runs exactly what the file says.
public struct ExplorationPlan: Sendable, Hashable {
    /// The seed the plan was drawn from (and the run's seed).
    public var seed: UInt64
    /// The generator that drew it.
    public var version: ExplorerVersion
    /// How much virtual time the run lasts.
    public var duration: Duration
    /// The simulated peripherals.
    public var peripherals: [Peripheral]
    /// What the apps do: client entries, each in its app (from version 3, several apps on the adapter, and
    /// sometimes two entries of one app for one peripheral).
    public var clients: [Client]
    /// Faults over time; each one or two timeline entries (a blip is off then on).
    public var faults: [Fault]
    /// The link parameters the central asks for, when not the defaults.
    public var central: Central?
    /// Whether the apps cache discovered databases in their registries (the scenario's `databaseCache:`), when not
    /// `off`: from version 4, `verified` in half the seeds.
    public var databaseCache: DatabaseCaching? = nil

    /// The central's link parameters (the scenario's `central:`).
    public struct Central: Sendable, Hashable {
        /// The connection interval (a multiple of 1.25 ms).
        public var interval: Duration
        /// The peripheral latency.
        public var latency: Int
        /// The supervision timeout.
        public var supervisionTimeout: Duration
        /// The ATT MTU the central asks for, if not 247.
        public var mtu: Int?
    }

    /// A peripheral: a name, an address, how often it advertises and its services; a custom one, or a
    /// built-in (`battery`, `thermostat`, `sensortag`) whose services are the profile's.
    public struct Peripheral: Sendable, Hashable {
        /// Its name, which clients and faults use.
        public var name: String
        /// Its address.
        public var id: String
        /// Its advertising interval.
        public var interval: Duration
        /// Its services (a built-in's, as its profile declares them, for the workload to pick from).
        public var services: [Service]
        /// The built-in it is, or `nil` for a custom peripheral.
        public var builtIn: String? = nil
        /// The ATT MTU it answers an exchange with, if not 247.
        public var mtu: Int? = nil
        /// Its LL data length, if not 251.
        public var dataLength: Int? = nil
    }

    /// A service of a drawn peripheral.
    public struct Service: Sendable, Hashable {
        /// A 16-bit UUID in hexadecimal (`FFE0`).
        public var uuid: String
        /// Its characteristics.
        public var characteristics: [Characteristic]
    }

    /// A characteristic of a drawn peripheral: a counter that notifies, or bytes.
    public struct Characteristic: Sendable, Hashable {
        /// A 16-bit UUID in hexadecimal.
        public var uuid: String
        /// Its properties as the scenario format names them (`read`, `write`, `notify`...).
        public var properties: [String]
        /// A counter (`uint32`, counting up by one each `every`), or `nil` for a bytes value.
        public var every: Duration?
        /// The initial bytes of a bytes value (up to 512).
        public var bytes: [UInt8]
    }

    /// A characteristic in a service, by UUID.
    public struct Reference: Sendable, Hashable {
        /// The service's UUID.
        public var service: String
        /// The characteristic's UUID.
        public var characteristic: String
        /// Whether the value is a counter (`uint32`), else bytes.
        public var counter: Bool
    }

    /// A read or a write of the client.
    public struct Operation: Sendable, Hashable {
        /// What is read or written.
        public var target: Reference
        /// When, first.
        public var at: Duration
        /// How often; once when `nil`.
        public var every: Duration?
        /// How many times, with `every`.
        public var count: Int
        /// The bytes to write; `nil` for a read.
        public var value: [UInt8]?
        /// A write without response.
        public var withoutResponse: Bool
    }

    /// A reconnection strategy with its parameters, as the scenario format writes it.
    public enum Reconnection: Sendable, Hashable {
        /// No reconnection.
        case none
        /// `wait` before each of `attempts` attempts of `timeout`.
        case linear(wait: Duration, attempts: Int, timeout: Duration)
        /// Exponential back-off; `jitter` is `none`, `full` or `decorrelated`.
        case exponential(
            initialDelay: Duration, multiplier: Double, maximumDelay: Duration, attempts: Int?, timeout: Duration,
            jitter: String)
        /// Reconnects when the device advertises, within `window`.
        case whenAdvertising(attempts: Int?, timeout: Duration, window: Duration?)

        /// The model of one of Airlink's strategies; another strategy is modelled as `none`.
        public init(_ strategy: any ReconnectionStrategy) {
            switch strategy {
            case let linear as LinearReconnectionStrategy:
                self = .linear(wait: linear.wait, attempts: linear.attempts, timeout: linear.timeout)
            case let exponential as ExponentialBackoffReconnectionStrategy:
                let jitter =
                    switch exponential.jitter {
                    case .none: "none"
                    case .full: "full"
                    case .decorrelated: "decorrelated"
                    }
                self = .exponential(
                    initialDelay: exponential.initialDelay, multiplier: exponential.multiplier,
                    maximumDelay: exponential.maximumDelay, attempts: exponential.attempts,
                    timeout: exponential.timeout, jitter: jitter)
            case let advertisement as AdvertisementReconnectionStrategy:
                self = .whenAdvertising(
                    attempts: advertisement.attempts, timeout: advertisement.timeout, window: advertisement.window)
            default:
                self = .none
            }
        }

        /// The strategy's name for summaries.
        public var name: String {
            switch self {
            case .none: "none"
            case .linear: "linear"
            case .exponential: "exponential"
            case .whenAdvertising: "whenAdvertising"
            }
        }
    }

    /// What the app does with one peripheral.
    public struct Client: Sendable, Hashable {
        /// The peripheral's name.
        public var device: String
        /// When it connects.
        public var connectAt: Duration
        /// The first connection's timeout.
        public var connectTimeout: Duration
        /// The strategy after a loss.
        public var reconnection: Reconnection
        /// Characteristics whose notifications it enables once connected.
        public var subscribe: [Reference]
        /// Reads and writes.
        public var operations: [Operation]
        /// When it disconnects, if ever.
        public var disconnectAt: Duration?
        /// When it disables the notifications it enabled, if ever.
        public var unsubscribeAt: Duration? = nil
        /// When it forgets the device in the registry, if ever.
        public var forgetAt: Duration? = nil
        /// The app it belongs to, from 1 (each app its own device manager and registry on the one adapter).
        public var app: Int = 1
    }

    /// A fault: one or two timeline entries (`powerOffAdapter` then `powerOnAdapter`), with a kind for summaries.
    public struct Fault: Sendable, Hashable {
        /// A timeline entry: when, the action, the device and the other keys in order.
        public struct Entry: Sendable, Hashable {
            /// When, from the start of the run.
            public var at: Duration
            /// The scenario action (`dropLink`, `powerOffAdapter`...).
            public var action: String
            /// The peripheral's name, for every action but the adapter's.
            public var device: String?
            /// Further keys and their YAML values, in the order written.
            public var arguments: [Argument]
        }

        /// A key of a timeline entry and its value as YAML (a scalar, or a flow collection).
        public struct Argument: Sendable, Hashable {
            /// The key.
            public var key: String
            /// The value, already YAML.
            public var yaml: String
        }

        /// What the fault is, for the summary's counts: `dropLink supervision-timeout`, `powerBlip`.
        public var kind: String
        /// Its entries, in time order.
        public var entries: [Entry]
    }

    /// The last time anything in the plan happens.
    var end: Duration { duration }
}
