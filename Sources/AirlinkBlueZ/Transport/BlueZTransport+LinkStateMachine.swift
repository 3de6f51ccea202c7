import AirlinkCore

extension BlueZTransport {
    /// Feeds an event to a device's state machine and turns its actions into effects.
    func feed(
        _ device: String, _ event: BlueZLinkStateMachine.Event, _ state: inout BlueZTransportState,
        _ effects: inout BlueZEffects
    ) {
        guard var link = state.links[device] else { return }
        let actions = link.machine.handle(event)
        state.links[device] = link
        for action in actions { perform(action, device: device, &state, &effects) }
    }

    /// Feeds an event from outside the loop thread: it is applied on the loop thread, in order.
    func feedLater(_ device: String, _ event: BlueZLinkStateMachine.Event) {
        connection.perform { [weak self] in
            self?.update { state, effects in self?.feed(device, event, &state, &effects) }
        }
    }

    private func perform(
        _ action: BlueZLinkStateMachine.Action, device: String, _ state: inout BlueZTransportState,
        _ effects: inout BlueZEffects
    ) {
        guard let link = state.links[device] else { return }
        let id = link.id
        switch action {
        case .callConnect:
            effects.work.append { [self] in callConnect(device, id: id) }
        case .refreshObjects:
            effects.work.append { [self] in refreshObjects(for: device) }
        case .armGrace:
            let grace = configuration.servicesGrace
            effects.work.append { [self] in
                let timer = connection.schedule(after: grace) { [weak self] in
                    self?.update { state, effects in self?.feed(device, .graceExpired, &state, &effects) }
                }
                self.state.withLock { $0.links[device]?.timers.append(timer) }
            }
        case .armSettleQuiet(let token):
            arm(after: configuration.servicesQuietPeriod, device: device, .settleQuietEnded(token), &effects)
        case .armSettleLimit(let token):
            arm(after: configuration.servicesSettleLimit, device: device, .settleLimitReached(token), &effects)
        case .succeed, .fail:
            let waiter = link.connectWaiter
            let timers = link.timers
            state.links[device]?.connectWaiter = nil
            state.links[device]?.timers = []
            let result: Result<Void, AirlinkError> =
                if case .fail(let error) = action { .failure(error.with(context: "connect to \(id)")) } else {
                    .success(())
                }
            effects.work.append { [self] in
                for timer in timers { connection.cancelTimer(timer) }
                waiter?.resume(result)
            }
        case .abortAttempt:
            effects.work.append { [self] in
                // try?: methodCall throws only for an invalid name or path; these are constants and paths from
                // BlueZ's tree
                if let message = try? DBusMessage.methodCall(
                    destination: BlueZInterface.service, path: device, interface: BlueZInterface.device,
                    member: "Disconnect")
                {
                    connection.send(message, timeout: disconnectLimit) { _ in }
                }
            }
        case .emitConnected:
            effects.events.append(.connected(id))
        case .emitDisconnected(let reason):
            state.links[device]?.subscriptions = [:]
            effects.events.append(.disconnected(id, reason: reason))
        case .emitServicesChanged:
            effects.events.append(.servicesChanged(id))
        case .failOperations(let error):
            let failing = state.operations.filter { $0.value.device == device }.sorted { $0.key < $1.key }
            for (key, _) in failing { state.operations[key] = nil }
            let contextual = error.with(context: "\(id)")
            effects.work.append { for (_, operation) in failing { operation.fail(contextual) } }
        }
    }

    /// Feeds `event` to the device's machine after `delay` (a stale timer's event is ignored by the machine).
    private func arm(
        after delay: Duration, device: String, _ event: BlueZLinkStateMachine.Event, _ effects: inout BlueZEffects
    ) {
        effects.work.append { [self] in
            connection.schedule(after: delay) { [weak self] in
                self?.update { state, effects in self?.feed(device, event, &state, &effects) }
            }
        }
    }

    /// Calls Device1.Connect; its reply feeds the machine.
    private func callConnect(_ device: String, id: DeviceID) {
        let message: DBusMessage
        do {
            message = try DBusMessage.methodCall(
                destination: BlueZInterface.service, path: device, interface: BlueZInterface.device, member: "Connect")
        } catch {
            update { state, effects in
                feed(
                    device, .connectFailed(BlueZErrorMapping.map(error, operation: .connect, context: "\(id)")), &state,
                    &effects)
            }
            return
        }
        // BlueZ's own connection timeout is around 40 s; the machine's deadline cancels earlier.
        connection.send(message, timeout: .seconds(60)) { [weak self] result in
            guard let self else { return }
            let event: BlueZLinkStateMachine.Event
            switch result {
            case .success:
                event = .connectReplied
            case .failure(.remote(let name, _)) where name == "org.bluez.Error.AlreadyConnected":
                event = .connectReplied
            case .failure(.cancelled):
                return
            case .failure(let error):
                event = .connectFailed(BlueZErrorMapping.map(error, operation: .connect, context: "connect to \(id)"))
            }
            update { state, effects in feed(device, event, &state, &effects) }
        }
    }

    /// Re-reads BlueZ's objects (their InterfacesAdded may lag behind ServicesResolved), then feeds
    /// the device's service count.
    private func refreshObjects(for device: String) {
        guard
            // try?: methodCall throws only for an invalid name or path; these are constants and paths from BlueZ's tree
            let message = try? DBusMessage.methodCall(
                destination: BlueZInterface.service, path: "/", interface: BlueZInterface.objectManager,
                member: "GetManagedObjects")
        else { return }
        connection.send(message, timeout: configuration.operationTimeout) { [weak self] result in
            guard let self else { return }
            update { state, effects in
                do {
                    let tree = try BlueZObjectTree(managedObjects: result.get())
                    state.tree.replace(with: tree)
                    createMissingLinks(&state)
                } catch {
                    logger.warning("re-reading BlueZ's objects failed; keeping the tree as it is: \(error)")
                }
                let count = state.tree.services(ofDevice: device).count
                feed(device, .objectsRefreshed(serviceCount: count), &state, &effects)
            }
        }
    }
}
