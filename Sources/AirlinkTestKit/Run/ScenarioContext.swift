import Airlink
import AirlinkCore
import AirlinkSimulation

/// What a user's own client code gets when it runs against a scenario's world (``ScenarioRunner/run(_:seed:client:)``).
///
/// Its `manager` is a ``/Airlink/DeviceManager`` on the simulation's radio; events it reports are recorded
/// for the scenario's expectations and invariants.
public struct ScenarioContext: Sendable {
    /// The simulation the scenario runs in.
    public let simulation: Simulation
    /// The (first) app's device manager, on the simulation's radio.
    public var manager: DeviceManager { managers[0] }
    /// Each app's device manager, in the order of their numbers: the first on the simulation's radio,
    /// the others on sessions of it (``/AirlinkSimulation/VirtualRadio/session()``), each with its own registry.
    public let managers: [DeviceManager]
    /// The simulated peripherals, in the world's order.
    public let peripherals: [SimulatedPeripheral]
    let recorder: ScenarioRecorder
    /// The inspectors of the world, in the world's order.
    let inspectors: [ScenarioRunningInspector]
    /// The run's tasks that wait on streams no one ends, cancelled when it is over.
    let background: ScenarioBackgroundTasks

    /// A peripheral by its name or id.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/deviceNotFound`` naming the peripherals there are.
    public func peripheral(_ nameOrID: String) throws(AirlinkError) -> SimulatedPeripheral {
        guard let match = peripherals.first(where: { $0.name == nameOrID || $0.id.description == nameOrID }) else {
            throw AirlinkError(
                .deviceNotFound,
                "the scenario has no peripheral '\(nameOrID)'; it has "
                    + peripherals.map { "\($0.name) (\($0.id))" }.joined(separator: ", "))
        }
        return match
    }

    /// An inspector of the world by its name or id (to change its values from your own code).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/deviceNotFound`` naming the inspectors there are.
    public func inspector(_ nameOrID: String) throws(AirlinkError) -> Inspector {
        guard let match = runningInspector(nameOrID) else {
            let names = inspectors.map { "\($0.declaration.name) (\($0.id))" }
            throw AirlinkError(
                .deviceNotFound,
                "the scenario has no inspector '\(nameOrID)'; it has "
                    + (names.isEmpty ? "none" : names.joined(separator: ", ")))
        }
        return match.inspector
    }

    func runningInspector(_ nameOrID: String) -> ScenarioRunningInspector? {
        inspectors.first { $0.declaration.name == nameOrID || $0.id.description == nameOrID }
    }

    /// The simulation's environment.
    public var environment: AirlinkEnvironment { simulation.environment }

    /// Records a line in the trace, category `client`.
    public func log(_ text: String) { environment.trace.record("client", text) }

    /// Records a value the app observed, for the scenario's expectations: every one counts for `value`; one
    /// `notified` also counts for `notifications` and `noNotificationLost`, as the notifications a scenario's own
    /// `client:` section receives do.
    ///
    /// A value from a ``/Airlink/DeviceService``'s stream or observer is reported whole with ``observed(_:)``.
    ///
    /// - Parameters:
    ///   - bytes: the value as the app received it.
    ///   - characteristic: its characteristic.
    ///   - service: the characteristic's service.
    ///   - device: the device it came from.
    ///   - notified: whether it came in a notification or an indication (`false`: the app read it).
    ///   - missedBefore: how many notified values the app's observer missed just before this one (a stream's
    ///     buffer overflowed); `noNotificationLost` fails when any was.
    public func observed(
        _ bytes: [UInt8], of characteristic: BluetoothUUID, in service: BluetoothUUID, on device: DeviceID,
        notified: Bool = false, missedBefore: Int = 0
    ) {
        recorder.record(
            ScenarioObservedValue(
                time: environment.clock.now.offset, device: device, service: service, characteristic: characteristic,
                bytes: bytes, notified: notified, missedBefore: missedBefore))
    }

    /// Records a notified value the app's observer received (from ``/Airlink/DeviceService/values(of:)`` or
    /// ``/Airlink/DeviceService/addObserver(for:_:)``), for the scenario's `value`, `notifications` and
    /// `noNotificationLost` expectations, with the values its observer missed before it.
    ///
    /// ```swift
    /// _ = try await ScenarioRunner().run(scenario) { context in
    ///     let service = context.manager.connection(to: "C0:FF:EE:00:00:01").services.service(.battery)
    ///     for await value in service.values(of: .batteryLevel) { context.observed(value) }
    /// }
    /// ```
    public func observed(_ value: CharacteristicValue) {
        observed(
            value.bytes, of: value.characteristic, in: value.service, on: value.device, notified: true,
            missedBefore: value.missedBefore)
    }
}
