import AirlinkCore
import AirlinkSimulation

/// Applies a scenario's timeline: each action at its virtual time, as a verb of the virtual radio.
struct ScenarioTimeline: Sendable {
    let actions: [ResolvedScenario.Action]
    let context: ScenarioContext

    func start() {
        let actions = self.actions
        let context = self.context
        context.simulation.spawn {
            let clock = context.environment.clock
            for action in actions {
                do {
                    try await clock.sleep(until: AirlinkInstant(offset: action.action.at.duration))
                } catch {
                    return
                }
                await Self.apply(action, context)
            }
        }
    }

    private static func apply(_ resolved: ResolvedScenario.Action, _ context: ScenarioContext) async {
        let action = resolved.action
        context.environment.trace.record("scenario", action.summary)
        let radio = context.simulation.radio
        guard let peripheral = resolved.peripheral else {
            if action.kind == .powerOffAdapter { radio.powerOffAdapter() }
            if action.kind == .powerOnAdapter { radio.powerOnAdapter() }
            return
        }
        switch action.kind {
        case .dropLink: peripheral.dropLink(reason: action.reason)
        case .moveOutOfRange: peripheral.moveOutOfRange()
        case .moveBackInRange: peripheral.moveBackInRange()
        case .move: if let position = action.position { peripheral.move(to: position.position) }
        case .failNextConnects: peripheral.failNextConnects(action.count, with: action.failure)
        case .respond:
            if let error = action.error { peripheral.respond(to: action.operation, with: error, times: action.count) }
        case .neverRespond: peripheral.neverRespond(to: action.operation, times: action.count)
        case .delayResponses:
            peripheral.delayResponses(to: action.operation, by: action.delay?.duration ?? .zero, times: action.count)
        case .reset: peripheral.reset()
        case .changeDatabase:
            do {
                var services: [Service] = []
                for service in action.services ?? [] { services.append(try ScenarioBuiltIns.service(service)) }
                peripheral.apply(
                    .updateFirmware(
                        FirmwareUpdate(
                            services: services, announcesServiceChanged: action.serviceChanged, hash: action.hash)))
            } catch {
                context.environment.trace.record("scenario", "changeDatabase failed: \(error.message)")
            }
        case .burstNotifications:
            if let characteristic = action.characteristic?.uuid {
                do {
                    try peripheral.burstNotifications(of: characteristic, count: action.count)
                } catch {
                    context.environment.trace.record("scenario", "burstNotifications failed: \(error.message)")
                }
            }
        case .stopAdvertising: peripheral.stopAdvertising()
        case .forgetBonds: peripheral.forgetBonds()
        case .startAdvertising: peripheral.startAdvertising()
        case .setValue:
            if let inspector = resolved.inspector, let value = resolved.inspectedValue,
                let identifier = action.identifier
            {
                await inspector.setValue(value, for: identifier, trace: context.environment.trace)
            } else if let characteristic = action.characteristic?.uuid, let value = action.value {
                do {
                    try peripheral.setValue(value.bytes, of: characteristic, in: action.service?.uuid)
                } catch {
                    context.environment.trace.record("scenario", "setValue failed: \(error.message)")
                }
            }
        case .powerOffAdapter: radio.powerOffAdapter()
        case .powerOnAdapter: radio.powerOnAdapter()
        }
    }
}
