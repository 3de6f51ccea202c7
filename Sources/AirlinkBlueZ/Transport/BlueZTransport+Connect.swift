import AirlinkCore

extension BlueZTransport {
    /// Connects to a device BlueZ knows (seen in a scan, cached or paired: no scan is needed for
    /// those), returning once `Connected` and `ServicesResolved` are true and the GATT objects exist.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` past `timeout` (BlueZ's attempt is cancelled with
    ///   `Disconnect`); ``/AirlinkCore/AirlinkError/Code/connectionFailed`` when BlueZ or the device refused (for
    ///   `le-connection-abort-by-local`, retry); ``/AirlinkCore/AirlinkError/Code/operationInProgress`` when
    ///   another attempt to the device runs; ``/AirlinkCore/AirlinkError/Code/deviceNotFound`` when BlueZ does not
    ///   know the device; ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``;
    ///   ``/AirlinkCore/AirlinkError/Code/cancelled``.
    public func connect(_ device: DeviceID, timeout: Duration) async throws(AirlinkError) -> LinkInfo {
        let context = "connect to \(device)"
        guard timeout > .zero else {
            throw AirlinkError(
                .invalidArgument, "the connect timeout must be positive, not \(timeout.text)", context: context)
        }
        let path = try devicePath(device)
        let waiter = OneShot<Void>()
        try state.withLock { (state) throws(AirlinkError) in
            try checkUsable(state, context: context)
            guard let link = state.links[path] else {
                throw AirlinkError(
                    .deviceNotFound,
                    "BlueZ does not know \(device) on \(adapterName): scan so that BlueZ sees it advertise (a paired "
                        + "or cached device needs no scan)", context: context)
            }
            guard link.connectWaiter == nil else {
                throw AirlinkError(
                    .operationInProgress, "another connect to \(device) is under way; wait for it", context: context)
            }
            state.links[path]?.connectWaiter = waiter
        }
        connection.perform { [weak self] in
            guard let self else { return }
            update { state, effects in
                feed(path, .connectRequested, &state, &effects)
                guard state.links[path]?.connectWaiter === waiter else { return }
                let timer = connection.schedule(after: timeout) { [weak self] in
                    self?.update { state, effects in self?.feed(path, .timedOut(timeout), &state, &effects) }
                }
                state.links[path]?.timers.append(timer)
            }
        }
        let result = await withTaskCancellationHandler {
            await waiter.wait()
        } onCancel: {
            feedLater(path, .cancelled)
        }
        try result.get()
        return try await linkInfo(device)
    }

    /// Disconnects; returns once BlueZ reports the link down, or when the configured operation timeout (ten
    /// seconds at most) passes if it never does.
    /// Cancels an attempt under way. Does nothing when the device is not connected.
    public func disconnect(_ device: DeviceID) async {
        // try?: an id that names no BlueZ device has no link to disconnect, and disconnect() then does nothing
        guard let path = try? devicePath(device) else { return }
        let waiter = OneShot<Void>()
        let needed = state.withLock { state -> Bool in
            guard state.lost == nil, !state.closed, let link = state.links[path] else { return false }
            guard link.machine.connected || link.machine.isConnecting || link.connectWaiter != nil else { return false }
            state.links[path]?.disconnectWaiters.append(waiter)
            state.links[path]?.machine.noteLocalDisconnect()
            return true
        }
        guard needed else { return }
        feedLater(path, .disconnectRequested)
        // try?: methodCall throws only for an invalid name or path; these are constants and paths from BlueZ's tree
        if let message = try? DBusMessage.methodCall(
            destination: BlueZInterface.service, path: path, interface: BlueZInterface.device, member: "Disconnect")
        {
            connection.send(message, timeout: disconnectLimit) { [weak self] result in
                guard case .failure(let error) = result else { return }
                // The link can be seen down before BlueZ's reply; a reply lost because the transport was
                // closed since then says nothing about the disconnect.
                if self?.state.withLock({ $0.closed }) != true {
                    self?.logger.warning("Disconnect of \(device) failed: \(error)")
                }
                waiter.resume(.success(()))
            }
        }
        let limit = connection.schedule(after: disconnectLimit) { waiter.resume(.success(())) }
        _ = await waiter.wait()
        connection.cancelTimer(limit)
    }

    /// How long a disconnect waits for BlueZ: the configured operation timeout, 10 s at most (as opening).
    var disconnectLimit: Duration { min(configuration.operationTimeout, .seconds(10)) }

    /// Asks BlueZ to forget a device (Adapter1.RemoveDevice): its cached services and pairing go.
    /// The remedy for a stale GATT cache; scan again to find the device.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/deviceNotFound`` when BlueZ does not know it.
    public func forget(_ device: DeviceID) async throws(AirlinkError) {
        let context = "forget \(device)"
        let path = try devicePath(device)
        try state.withLock { (state) throws(AirlinkError) in try checkUsable(state, context: context) }
        _ = try await callBlueZ(
            path: adapterPath, interface: BlueZInterface.adapter, member: "RemoveDevice",
            arguments: [.objectPath(path)],
            operation: .other, context: context)
    }
}

extension BlueZTransport: StackDatabaseCache {
    /// `true`: BlueZ answers discovery from the objects it exported, which its `[GATT] Cache` setting keeps
    /// across connections.
    public var answersDiscoveryFromOwnCache: Bool { true }

    /// Drops BlueZ's copy of the device's database the only way BlueZ offers: ``forget(_:)``
    /// (`Adapter1.RemoveDevice`), within the transport's operation timeout. The device must be heard in a scan
    /// again before it can be connected.
    public func dropDatabaseCache(_ device: DeviceID) async throws(AirlinkError) {
        try await forget(device)
    }
}
