import Airlink
import AirlinkCore
import AirlinkSimulation

extension ScenarioClientDriver {
    /// A client's `observe:` on a connected inspector: lists its values through an `InspectorClient`,
    /// follows the ones that notify, and reads and writes by identifier at their times.
    func observe(_ observe: ScenarioObserve, on connection: ConnectionManager) async {
        let recorder = context.recorder
        let trace = context.environment.trace
        let device = behaviour.device
        let listing = recorder.start("list inspector \(device)", timeout: Self.gattTimeout)
        let inspector: ObservedInspector
        do throws(AirlinkError) {
            inspector = try await InspectorClient.inspector(on: connection)
            recorder.finish(listing, "ok")
            trace.record(
                "client",
                "inspector \(device) has "
                    + inspector.values.map { "\($0.identifier) (\($0.type))" }.joined(separator: ", "))
        } catch {
            recorder.finish(listing, "failed: \(error.code)")
            trace.record("client", "inspector \(device) listing failed: \(error.code)")
            return
        }
        if observe.follow { await follow(inspector) }
        for operation in observe.read { schedule(operation, nil, on: inspector) }
        for (operation, value) in zip(observe.write, behaviour.observedWrites) {
            schedule(operation, value, on: inspector)
        }
    }

    /// Subscribes to every value that notifies and records each change.
    private func follow(_ inspector: ObservedInspector) async {
        let recorder = context.recorder
        let trace = context.environment.trace
        let device = behaviour.device
        let index = recorder.start("follow \(device)", timeout: Self.gattTimeout)
        do throws(AirlinkError) {
            let changes = try await inspector.changes()
            recorder.finish(index, "ok")
            trace.record("client", "follow \(device) ok")
            context.background.add(
                context.simulation.spawn {
                    for await change in changes {
                        recorder.record(change.value, of: change.identifier, on: device, .notified)
                        trace.record("client", "notified \(change.identifier) = \(change.value)")
                    }
                })
        } catch {
            recorder.finish(index, "failed: \(error.code)")
            trace.record("client", "follow \(device) failed: \(error.code)")
        }
    }

    /// A read (`value` nil) or a write of an inspected value, once or periodically.
    private func schedule(
        _ operation: ScenarioObservedOperation, _ value: InspectedValue?, on inspector: ObservedInspector
    ) {
        let recorder = context.recorder
        let trace = context.environment.trace
        let device = behaviour.device
        let identifier = operation.identifier
        repeating(at: operation.at, every: operation.every, count: operation.count) {
            let verb = value == nil ? "read" : "write"
            let index = recorder.start("\(verb) \(identifier)", timeout: Self.gattTimeout)
            do throws(AirlinkError) {
                if let value {
                    try await inspector.write(value, to: identifier)
                    recorder.finish(index, "ok")
                    trace.record("client", "write \(identifier) = \(value) ok")
                } else {
                    let read = try await inspector.read(identifier)
                    recorder.finish(index, "ok")
                    recorder.record(read, of: identifier, on: device, .read)
                    trace.record("client", "read \(identifier) = \(read)")
                }
            } catch {
                recorder.finish(index, "failed: \(error.code)")
                trace.record("client", "\(verb) \(identifier) failed: \(error.code)")
            }
        }
    }
}
