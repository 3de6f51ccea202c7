import Airlink
import AirlinkCore
import AirlinkRegistry
import AirlinkSimulation

/// What a scenario's run gave: whether its expectations held, invariant violations, the trace and statistics.
public struct ScenarioResult: Sendable {
    /// An expectation and whether it held, with the reason.
    public struct Expectation: Sendable, Hashable {
        /// The expectation as written.
        public var description: String
        /// Whether it held.
        public var held: Bool
        /// What was observed.
        public var reason: String
    }

    /// Figures of the run, in virtual time.
    public struct Statistics: Sendable, Hashable {
        /// From each loss to its reconnection.
        public var reconnectTimes: [Duration]
        /// Links lost.
        public var losses: Int
        /// Reconnection attempts started.
        public var reconnectionAttempts: Int
        /// Notifications that reached the app's observers.
        public var notificationsReceived: Int
        /// ATT PDUs on air.
        public var attPDUs: Int
        /// Lines in the trace.
        public var traceLines: Int
    }

    /// A peripheral of the world.
    public struct Device: Sendable, Hashable {
        /// Its name.
        public var name: String
        /// Its address.
        public var id: DeviceID
        /// Its advertising data (AD structures), empty if it does not advertise.
        public var advertisingData: [UInt8]
        /// Whether its advertisements are connectable.
        public var connectable: Bool
    }

    /// The scenario's name.
    public var name: String
    /// The seed of the run.
    public var seed: UInt64
    /// The virtual time the run lasted.
    public var duration: Duration
    /// Each expectation, in the file's order.
    public var expectations: [Expectation]
    /// Built-in invariants that did not hold.
    public var violations: [String]
    /// Figures of the run.
    public var statistics: Statistics
    /// The events the app's device manager reported.
    public var events: [ScenarioEventRecord]
    /// The values the app observed.
    public var values: [ScenarioObservedValue]
    /// Inspectors' values the client read or was notified of, and the writes inspectors accepted.
    public var inspected: [ScenarioInspectedRecord] = []
    /// The app's operations.
    public var operations: [ScenarioOperationRecord]
    /// The ends of the streams of notified values the app observed.
    public var streamEnds: [ScenarioStreamEnd] = []
    /// The device registry's records at the end of the run (the runner's device manager records into one).
    public var registry: [ConnectionRecord] = []
    /// Each app's registry at the end of the run, in the order of the apps (the first is ``registry``).
    public var registries: [[ConnectionRecord]] = []
    /// The simulation's trace.
    public var trace: SimulationTrace
    /// The timeline's actions, in time order.
    public var actions: [ScenarioAction]
    /// The world's peripherals.
    public var devices: [Device]
    /// The run's traffic as a btsnoop file, built from the trace's records.
    public var capture: BTSnoopCapture { BTSnoopCapture(records: trace.records) }

    /// Whether every expectation and invariant held.
    public var passed: Bool { violations.isEmpty && expectations.allSatisfy(\.held) }

    /// A summary for people: what happened, which expectations held.
    public var summary: String {
        var lines = ["scenario \(name) (seed \(seed), \(duration.scenarioText) of virtual time)"]
        lines.append("what happened:")
        for record in events {
            if case .discovery = record.event { continue }
            // The device the event concerns, or for the adapter's events its new state (on, off).
            let subject: String? =
                if case .adapterStateChanged(let state) = record.event { "\(state)" } else {
                    record.event.device.map { "\($0)" }
                }
            lines.append("  t=\(record.time.scenarioText) \(record.event.name)" + (subject.map { " " + $0 } ?? ""))
        }
        lines.append("expectations:")
        for expectation in expectations {
            lines.append("  \(expectation.held ? "ok  " : "FAIL") \(expectation.description): \(expectation.reason)")
        }
        lines.append("invariants: " + (violations.isEmpty ? "all held" : "\(violations.count) violated"))
        for violation in violations { lines.append("  FAIL \(violation)") }
        let times = statistics.reconnectTimes.map(\.scenarioText).joined(separator: ", ")
        lines.append(
            "statistics: \(statistics.losses) loss(es), \(statistics.reconnectionAttempts) reconnection attempt(s), "
                + "time to reconnect [\(times)], \(statistics.notificationsReceived) notification(s), "
                + "\(statistics.attPDUs) ATT PDU(s), \(statistics.traceLines) trace line(s)")
        lines.append(passed ? "PASSED" : "FAILED")
        return lines.joined(separator: "\n")
    }
}
