import Airlink
import AirlinkCore
import Synchronization

/// An event the app's device manager reported, at its virtual time.
public struct ScenarioEventRecord: Sendable, Hashable {
    /// When.
    public var time: Duration
    /// The event as the device manager reported it, with its arguments.
    public var event: AirlinkEvent
    /// The app whose device manager reported it, from 1.
    public var app: Int = 1

    /// The event's short name without its argument: `willReconnect`, not `willReconnect(2)`.
    public var name: String {
        let name = event.name
        return name.firstIndex(of: "(").map { String(name[..<$0]) } ?? name
    }
}

/// A value the app observed: notified or read.
public struct ScenarioObservedValue: Sendable, Hashable {
    /// When.
    public var time: Duration
    /// The peripheral the value came from.
    public var device: DeviceID
    /// The UUID of the characteristic's service.
    public var service: BluetoothUUID
    /// The characteristic's UUID.
    public var characteristic: BluetoothUUID
    /// The value as it arrived, undecoded.
    public var bytes: [UInt8]
    /// Whether it came from a notification (else a read).
    public var notified: Bool
    /// Values the observer missed before this one (its buffer overflowed).
    public var missedBefore: Int
    /// The app that observed it, from 1.
    public var app: Int = 1
    /// The index of the scenario's client entry that observed it (each entry follows its own stream).
    public var client: Int = 0
}

/// The end of a stream of notified values the app observed (``/Airlink/DeviceService/values(of:)``).
public struct ScenarioStreamEnd: Sendable, Hashable {
    /// When the stream ended.
    public var time: Duration
    /// The peripheral.
    public var device: DeviceID
    /// The characteristic whose values it carried.
    public var characteristic: BluetoothUUID
    /// The app whose stream it was, from 1.
    public var app: Int = 1
    /// The index of the scenario's client entry whose stream it was.
    public var client: Int = 0
}

/// One operation of the app: when it started, its timeout, and each time it completed.
public struct ScenarioOperationRecord: Sendable, Hashable {
    /// `connect C0:FF:EE:00:00:01`, `read 2A19`.
    public var name: String
    /// When it started.
    public var start: Duration
    /// How long it may take.
    public var timeout: Duration
    /// Each completion's time and outcome (exactly one is expected).
    public var completions: [(time: Duration, outcome: String)]
    /// The app that made it, from 1.
    public var app: Int = 1
    /// The index of the scenario's client entry that made it.
    public var client: Int = 0

    /// Records are equal when they name the same operation, started at the same time, with the same
    /// completion times (outcomes are descriptions, compared through the trace instead).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.start == rhs.start && lhs.app == rhs.app
            && lhs.completions.map(\.time) == rhs.completions.map(\.time)
    }

    /// Hashes the operation's name and start, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(start)
    }
}

/// An inspector's value as a run saw it: read or notified to the client, or written to the inspector.
public struct ScenarioInspectedRecord: Sendable, Hashable {
    /// How the value was seen.
    public enum Source: String, Sendable, Hashable {
        /// The client read it.
        case read
        /// The client was notified of it.
        case notified
        /// The inspector accepted a central's write of it.
        case written
    }

    /// When, from the start of the run.
    public var time: Duration
    /// The inspector the value belongs to, as the observer found it.
    public var device: DeviceID
    /// The value's identifier.
    public var identifier: String
    /// The value, decoded as the inspector's type for it.
    public var value: InspectedValue
    /// How it was seen.
    public var source: Source
}

/// What the app saw during a run, recorded from the simulation's tasks (or, for the BlueZ explorer, from real
/// time: the environment's clock, whatever it is).
package final class ScenarioRecorder: Sendable {
    private struct State {
        var events: [ScenarioEventRecord] = []
        var values: [ScenarioObservedValue] = []
        var inspected: [ScenarioInspectedRecord] = []
        var operations: [ScenarioOperationRecord] = []
        var streamEnds: [ScenarioStreamEnd] = []
    }
    private let state = Mutex(State())
    private let environment: AirlinkEnvironment

    package init(environment: AirlinkEnvironment) { self.environment = environment }

    private var now: Duration { environment.clock.now.offset }

    package func record(_ event: AirlinkEvent, app: Int = 1) {
        let time = now
        state.withLock { $0.events.append(ScenarioEventRecord(time: time, event: event, app: app)) }
    }

    package func record(_ value: ScenarioObservedValue) {
        state.withLock { $0.values.append(value) }
    }

    func record(
        _ value: InspectedValue, of identifier: String, on device: DeviceID, _ source: ScenarioInspectedRecord.Source
    ) {
        let record = ScenarioInspectedRecord(
            time: now, device: device, identifier: identifier, value: value, source: source)
        state.withLock { $0.inspected.append(record) }
    }

    package func recordEnd(of characteristic: BluetoothUUID, on device: DeviceID, app: Int = 1, client: Int = 0) {
        let end = ScenarioStreamEnd(
            time: now, device: device, characteristic: characteristic, app: app, client: client)
        state.withLock { $0.streamEnds.append(end) }
    }

    /// Starts an operation; returns its index for ``finish(_:_:)``.
    package func start(_ name: String, timeout: Duration, app: Int = 1, client: Int = 0) -> Int {
        let time = now
        return state.withLock {
            $0.operations.append(
                ScenarioOperationRecord(
                    name: name, start: time, timeout: timeout, completions: [], app: app, client: client))
            return $0.operations.count - 1
        }
    }

    package func finish(_ index: Int, _ outcome: String) {
        let time = now
        state.withLock { $0.operations[index].completions.append((time, outcome)) }
    }

    package var events: [ScenarioEventRecord] { state.withLock { $0.events } }
    package var values: [ScenarioObservedValue] { state.withLock { $0.values } }
    var inspected: [ScenarioInspectedRecord] { state.withLock { $0.inspected } }
    package var operations: [ScenarioOperationRecord] { state.withLock { $0.operations } }
    package var streamEnds: [ScenarioStreamEnd] { state.withLock { $0.streamEnds } }
}

extension ScenarioObservedValue {
    /// A value from its parts (the BlueZ explorer records its values outside a scenario run).
    package init(
        at time: Duration, device: DeviceID, service: BluetoothUUID, characteristic: BluetoothUUID, bytes: [UInt8],
        notified: Bool, missedBefore: Int
    ) {
        self.init(
            time: time, device: device, service: service, characteristic: characteristic, bytes: bytes,
            notified: notified, missedBefore: missedBefore)
    }
}
