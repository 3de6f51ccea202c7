import Airlink
import AirlinkCore
import AirlinkRegistry
import AirlinkSimulation

/// What the oracles read of a run: typed records only, never trace text.
///
/// ``init(scenario:result:)`` takes them from a run; tests build one by hand to show an oracle failing on a
/// violating sequence.
public struct ExplorationObservation: Sendable {
    /// A client of the scenario: its peripheral's address, its strategy and what it subscribed to.
    public struct Client: Sendable {
        /// The peripheral's address.
        public var device: DeviceID
        /// Its reconnection strategy, with the parameters the reference model needs.
        public var reconnection: ExplorationPlan.Reconnection
        /// The characteristics it enables notifications of (UUIDs as text, `F111`).
        public var subscribed: [String]
        /// When it disables them again, if it does.
        public var unsubscribeAt: Duration?
        /// The app it belongs to, from 1.
        public var app = 1
        /// Its index in the scenario's `client:` list, which its values and operations carry (`nil`: any).
        public var entry: Int?

        /// A client from its parts (for runs that are not scenarios: the BlueZ explorer's).
        package init(
            device: DeviceID, reconnection: ExplorationPlan.Reconnection, subscribed: [String],
            unsubscribeAt: Duration? = nil
        ) {
            self.device = device
            self.reconnection = reconnection
            self.subscribed = subscribed
            self.unsubscribeAt = unsubscribeAt
        }
    }

    /// The virtual time the run lasted.
    public var end: Duration
    /// The layers' events, stamped with virtual time.
    public var events: [ScenarioEventRecord]
    /// The app's operations with their starts, timeouts and completions.
    public var operations: [ScenarioOperationRecord]
    /// The values the app read or was notified of.
    public var values: [ScenarioObservedValue]
    /// When the app's streams of notified values ended.
    public var streamEnds: [ScenarioStreamEnd]
    /// The simulation's typed trace (radio links and ATT PDUs).
    public var records: [TraceRecord]
    /// Whether several apps shared the adapter (set in an app's ``scoped(toApp:)`` view): another app's
    /// attempts then show on air too, and an attempt may find the link another app made.
    public var sharedAdapter = false
    /// The scenario's timeline: the faults injected.
    public var actions: [ScenarioAction]
    /// The world's peripherals: names and addresses.
    public var devices: [ScenarioResult.Device]
    /// The plan's clients.
    public var clients: [Client]
    /// The device registry's records at the end of the run (the first app's; one app's in ``scoped(toApp:)``).
    public var registry: [ConnectionRecord]
    /// Each app's registry at the end of the run, in the order of the apps.
    public var registries: [[ConnectionRecord]] = []
    /// Each peripheral's GATT database over time, as its spec and the timeline define it: the initial
    /// one from t=0, a `changeDatabase`'s from its time, the initial one again from a `reset`.
    public var databases: [DeviceID: [(from: Duration, database: AttributeDatabase)]]

    /// The observation of a finished run of `scenario` (drawn by the explorer or written by hand).
    public init(scenario: Scenario, result: ScenarioResult) {
        end = result.duration
        events = result.events
        operations = result.operations
        values = result.values
        streamEnds = result.streamEnds
        records = result.trace.records
        actions = result.actions
        devices = result.devices
        registry = result.registry
        registries = result.registries
        databases = Self.databaseTimelines(of: scenario, devices: result.devices, actions: result.actions)
        clients = scenario.client.enumerated().compactMap { index, client in
            guard let device = result.devices.first(where: { $0.name == client.device || "\($0.id)" == client.device })
            else { return nil }
            var entry = Client(
                device: device.id,
                reconnection: ExplorationPlan.Reconnection(client.reconnection?.strategy ?? NoReconnectionStrategy()),
                subscribed: (client.subscribe ?? []).map { $0.characteristic.description.uppercased() },
                unsubscribeAt: client.unsubscribeAt?.duration)
            entry.app = client.app ?? 1
            entry.entry = index
            return entry
        }
    }

    /// An observation built from parts (tests of the oracles; the BlueZ explorer, whose `records` hold the
    /// notifications the fake BlueZ sent as ATT notifications on air).
    package init(
        end: Duration, events: [ScenarioEventRecord] = [], operations: [ScenarioOperationRecord] = [],
        values: [ScenarioObservedValue] = [], streamEnds: [ScenarioStreamEnd] = [], records: [TraceRecord] = [],
        actions: [ScenarioAction] = [], devices: [ScenarioResult.Device] = [], clients: [Client] = [],
        registry: [ConnectionRecord] = [], databases: [DeviceID: [(from: Duration, database: AttributeDatabase)]] = [:]
    ) {
        self.registry = registry
        self.databases = databases
        self.end = end
        self.events = events
        self.operations = operations
        self.values = values
        self.streamEnds = streamEnds
        self.records = records
        self.actions = actions
        self.devices = devices
        self.clients = clients
    }

    /// The apps the run's records name, in order (the first at least).
    var apps: [Int] {
        Array(Set([1] + clients.map(\.app) + events.map(\.app) + operations.map(\.app))).sorted()
    }

    /// What one app saw: its events, operations, values, streams, clients and registry; the radio's
    /// records, the timeline and the world stay whole (the adapter is shared).
    public func scoped(toApp app: Int) -> ExplorationObservation {
        var scoped = self
        scoped.events = events.filter { $0.app == app }
        scoped.operations = operations.filter { $0.app == app }
        scoped.values = values.filter { $0.app == app }
        scoped.streamEnds = streamEnds.filter { $0.app == app }
        scoped.clients = clients.filter { $0.app == app }
        scoped.registry = registries.indices.contains(app - 1) ? registries[app - 1] : (app == 1 ? registry : [])
        scoped.sharedAdapter = apps.count > 1
        return scoped
    }

    /// An oracle's violations judged app by app (``scoped(toApp:)``), the lines of a further app prefixed
    /// with its number: `app2 E0:00:00:00:00:01: ...`.
    func eachApp(_ violations: (ExplorationObservation) -> [String]) -> [String] {
        let apps = self.apps
        guard apps.count > 1 || sharedAdapter else { return violations(self) }
        return apps.flatMap { app in violations(scoped(toApp: app)).map { app == 1 ? $0 : "app\(app) \($0)" } }
    }

    /// The clients with one entry per device: an app's later entry for a device sets the strategy of the
    /// connection they share (``/Airlink/DeviceManager/connection(to:reconnection:)``), so it stands for both.
    var connectionClients: [Client] {
        var seen: [DeviceID: Int] = [:]
        var result: [Client] = []
        for client in clients {
            if let index = seen[client.device] {
                result[index].reconnection = client.reconnection
            } else {
                seen[client.device] = result.count
                result.append(client)
            }
        }
        return result
    }

    /// The connection events of `device`, in order.
    func connectionEvents(of device: DeviceID) -> [(time: Duration, event: ConnectionEvent)] {
        events.compactMap { record in
            guard case .connection(device, let event) = record.event else { return nil }
            return (record.time, event)
        }
    }

    /// The spans the adapter was off, from the layers' `adapterStateChanged` events (open at the end).
    var adapterOff: [Range<Duration>] {
        var spans: [Range<Duration>] = []
        var off: Duration?
        for record in events {
            guard case .adapterStateChanged(let state) = record.event else { continue }
            if state == .poweredOn {
                if let start = off { spans.append(start..<record.time) }
                off = nil
            } else if off == nil {
                off = record.time
            }
        }
        if let off { spans.append(off..<(end + .seconds(1))) }
        return spans
    }
}

/// An oracle's verdict on a run: the oracle and what did not hold, at which virtual time.
public struct OracleFailure: Sendable, Hashable, CustomStringConvertible {
    /// The oracle that failed (`liveness`, `reconnection`...).
    public var oracle: String
    /// What did not hold, with times and devices.
    public var message: String

    /// `reconnection: E0:00:00:00:00:01 attempt 2 ...`.
    public var description: String { "\(oracle): \(message)" }
}

extension OracleFailure {
    /// A failure from its parts (the BlueZ explorer's `run` failures).
    package init(_ oracle: String, _ message: String) {
        self.init(oracle: oracle, message: message)
    }
}

/// A property every run must have, checked from its definition on the typed records of the run.
public protocol ExplorationOracle: Sendable {
    /// A short name for summaries: `liveness`, `reconnection`, `notifications`, `terminal`, `att`.
    var name: String { get }
    /// What did not hold in the run, one line each; empty when the property held.
    func violations(in observation: ExplorationObservation) -> [String]
}

extension ExplorationOracle {
    /// The violations as failures named after the oracle.
    package func check(_ observation: ExplorationObservation) -> [OracleFailure] {
        violations(in: observation).map { OracleFailure(oracle: name, message: $0) }
    }
}

/// Every oracle the explorer judges a run with.
public enum ExplorationOracles {
    /// Liveness, terminal events, the reconnection strategies' reference models, notifications, the ATT
    /// bearer, the injected faults' own definitions, the registry, GATT permissions, every app's connection
    /// agreeing with the adapter's links, and one app's unsubscribe leaving the others' notifications on.
    public static let all: [any ExplorationOracle] = [
        LivenessOracle(), TerminalEventOracle(), ReconnectionModelOracle(), NotificationOracle(), ATTBearerOracle(),
        FaultInjectionOracle(), RegistryOracle(), GATTPermissionsOracle(), LinkAgreementOracle(),
        SharedNotificationsOracle(),
    ]
}

extension ExplorationObservation.Client {
    /// Whether a record of the scenario's client entry `index` is this client's (any, when its entry is unknown).
    func owns(_ index: Int) -> Bool { entry.map { $0 == index } ?? true }
}
