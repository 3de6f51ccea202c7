import Airlink
import AirlinkCore
import AirlinkSimulation

extension ScenarioClientDriver {
    /// A client's `observe:` on a connected inspector: lists its values through an `InspectorClient`,
    /// follows the ones that notify, and reads and writes by identifier at their times.
    func observe(_ observe: ScenarioObserve, on connection: ConnectionManager) async {
        let recorder = context.recorder
        let trace = context.simulation.trace
        let device = behaviour.device
        let listing = recorder.start(
            "list inspector \(device)", timeout: Self.gattTimeout, app: behaviour.app, client: behaviour.index)
        let inspector: ObservedInspector
        do throws(AirlinkError) {
            inspector = try await InspectorClient.inspector(on: connection)
            recorder.finish(listing, "ok")
            trace.record(
                traced(
                    .inspectorListed(
                        device,
                        values: inspector.values.map { .init(identifier: $0.identifier, type: "\($0.type)") })))
        } catch {
            recorder.finish(listing, "failed: \(error.code)")
            trace.record(traced(.inspectorListingFailed(device, error.code)))
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
        let trace = context.simulation.trace
        let device = behaviour.device
        let index = recorder.start(
            "follow \(device)", timeout: Self.gattTimeout, app: behaviour.app, client: behaviour.index)
        do throws(AirlinkError) {
            let changes = try await inspector.changes()
            recorder.finish(index, "ok")
            trace.record(traced(.followed(device)))
            context.background.add(
                context.simulation.spawn {
                    for await change in changes {
                        recorder.record(change.value, of: change.identifier, on: device, .notified)
                        trace.record(traced(.notified(target: change.identifier, value: "\(change.value)", missed: 0)))
                    }
                })
        } catch {
            recorder.finish(index, "failed: \(error.code)")
            trace.record(traced(.followFailed(device, error.code)))
        }
    }

    /// A read (`value` nil) or a write of an inspected value, once or periodically.
    private func schedule(
        _ operation: ScenarioObservedOperation, _ value: InspectedValue?, on inspector: ObservedInspector
    ) {
        let recorder = context.recorder
        let trace = context.simulation.trace
        let device = behaviour.device
        let identifier = operation.identifier
        repeating(at: operation.at, every: operation.every, count: operation.count) {
            let verb: ClientTraceEvent.Operation = value == nil ? .read : .write
            let index = recorder.start(
                "\(verb.rawValue) \(identifier)", timeout: Self.gattTimeout, app: behaviour.app, client: behaviour.index
            )
            do throws(AirlinkError) {
                if let value {
                    try await inspector.write(value, to: identifier)
                    recorder.finish(index, "ok")
                    trace.record(traced(.wrote(target: identifier, value: "\(value)")))
                } else {
                    let read = try await inspector.read(identifier)
                    recorder.finish(index, "ok")
                    recorder.record(read, of: identifier, on: device, .read)
                    trace.record(traced(.read(target: identifier, value: "\(read)")))
                }
            } catch {
                recorder.finish(index, "failed: \(error.code)")
                trace.record(traced(.failed(verb, target: identifier, error.code)))
            }
        }
    }
}
