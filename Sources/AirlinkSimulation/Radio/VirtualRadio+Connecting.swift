import AirlinkCore

extension VirtualRadio {
    /// Connects at the peripheral's next connectable advertising event, then exchanges MTU and
    /// subscribes to Service Changed before returning.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` (the attempt is cancelled),
    ///   ``/AirlinkCore/AirlinkError/Code/connectionFailed`` and ``/AirlinkCore/AirlinkError/Code/operationInProgress``
    ///   (injected with ``SimulatedPeripheral/failNextConnects(_:with:)`` or a second concurrent attempt),
    ///   ``/AirlinkCore/AirlinkError/Code/deviceNotFound``, ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``,
    ///   ``/AirlinkCore/AirlinkError/Code/cancelled``.
    public func connect(_ device: DeviceID, timeout: Duration) async throws(AirlinkError) -> LinkInfo {
        let attempt = try world.lock.withLock { () throws(AirlinkError) -> ConnectAttempt? in
            try checkPowered("connect to \(device)")
            guard let peripheral = world.peripheral(device) else {
                throw AirlinkError(
                    .deviceNotFound, "no simulated peripheral has the id \(device); add it with Simulation.add(_:)")
            }
            if let link = links[device], link.attempt == nil, link.isUp {
                // Another client's link (another app on the adapter): announced again, so that the
                // caller's layers see the `.connected` of the link they now share.
                emit(.connected(device))
                return nil
            }
            if attempts.contains(where: { $0.peripheral === peripheral }) {
                throw AirlinkError(
                    .operationInProgress, "another attempt to connect to \(device) is under way; wait for it",
                    cause: .bluez(name: "org.bluez.Error.InProgress", message: "Operation already in progress"))
            }
            let attempt = ConnectAttempt(central: self, peripheral: peripheral)
            attempts.append(attempt)
            peripheral.pendingConnects.append(attempt)
            peripheral.addObserver()
            world.record(.connecting(adapter: adapterIndex, device: device, timeout: timeout))
            world.schedule(at: world.now + VirtualDuration(timeout)) { [self] in
                guard !attempt.isFinished else { return }
                world.record(.connectionAttemptTimedOut(adapter: adapterIndex, device: device))
                attempt.abandon(with: Self.connectTimedOut(device, timeout, setupInterval: attempt.link?.interval))
            }
            return attempt
        }
        guard let attempt else {
            return world.lock.withLock { links[device]!.info }
        }
        let result = await attempt.result.wait(lock: world.lock) {
            attempt.abandon(with: AirlinkError(.cancelled, "connecting to \(device) was cancelled"))
        }
        return try result.get()
    }

    /// Turns an attempt into a link at an advertising event (CONNECT_IND), announces it at its first
    /// connection event, then runs the link setup.
    func establishLink(for attempt: ConnectAttempt, with peripheral: RadioPeripheral) {
        assertConfined()
        attempt.leavePending()
        // CONNECT_IND, then transmitWindowDelay (1.25 ms) and a transmit window offset of 1.25 ms.
        let anchor = world.now + .microseconds(2_500)
        let link = Link(world: world, central: self, peripheral: peripheral, parameters: parameters, anchor: anchor)
        link.attempt = attempt
        attempt.link = link
        // What the central found on an earlier link: a bonded peripheral may indicate Service Changed as
        // soon as the link is up, before this link's setup finds the characteristic again.
        link.serviceChangedHandle = serviceChangedHandles[peripheral.id]
        peripheral.links.append(link)
        links[peripheral.id] = link
        linkOrder.append(link)
        let setup = LinkSetupProcedure(
            requestedMTU: UInt16(parameters.requestedMTU),
            subscribesToServiceChanged: parameters.subscribesToServiceChanged)
        world.schedule(at: anchor) { [self] in
            guard !link.isClosed else { return }
            link.isUp = true
            world.record(.connected(adapter: adapterIndex, device: peripheral.id, parameters: link.parameters))
            emit(.connected(peripheral.id))
            peripheral.host?.centralConnected(link)
            peripheral.clientConnected(link)
            peripheral.catchUpUpdates()
            if host != nil {  // the host runs its own ATT: no setup of the radio's own
                link.attempt = nil
                attempt.finish(.success(link.info))
                return
            }
            link.enqueue(
                ProcedureOperation(setup) { [self] result in
                    switch result {
                    case .success(let outcome):
                        link.mtu = outcome.mtu
                        link.serviceChangedHandle = outcome.serviceChangedHandle ?? link.serviceChangedHandle
                        serviceChangedHandles[peripheral.id] = link.serviceChangedHandle
                        world.record(.linkReady(adapter: adapterIndex, device: peripheral.id, mtu: outcome.mtu))
                        link.attempt = nil
                        attempt.finish(.success(link.info))
                        requestSecurity(on: link)
                    case .failure(let error):
                        // The attempt fails, so no link of it may stay up: close it, once the link's
                        // operation queue has returned from this completion.
                        link.attempt = nil
                        attempt.finish(.failure(error))
                        world.schedule(at: world.now) {
                            if !link.isClosed { link.drop(reason: .localHostTerminated) }
                        }
                    }
                })
        }
    }

    /// Disconnects (LL_TERMINATE_IND at the next connection event); returns once the link is down.
    public func disconnect(_ device: DeviceID) async {
        let link = world.lock.withLock { () -> Link? in
            if let attempt = attempts.first(where: { $0.peripheral.id == device }) {
                attempt.abandon(with: AirlinkError(.cancelled, "connecting to \(device) was cancelled by disconnect"))
            }
            guard let link = links[device], !link.isClosed else { return nil }
            world.record("radio", "\(tracePrefix)\(device) disconnecting")
            if !link.canExchange {
                link.drop(reason: .localHostTerminated)
                return nil
            }
            let at = link.nextEventStart(after: world.now)
            world.schedule(at: at) { link.drop(reason: .localHostTerminated) }
            return link
        }
        guard let link else { return }
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            world.lock.withLock {
                if link.isClosed {
                    continuation.resume()
                } else {
                    link.disconnectWaiters.append(continuation)
                }
            }
        }
    }

    /// A link closed: forget it and tell subscribers if they heard it come up.
    func linkClosed(_ link: Link, reason: DisconnectionReason) {
        assertConfined()
        if links[link.peripheral.id] === link { links[link.peripheral.id] = nil }
        linkOrder.removeAll { $0 === link }
        if link.isUp { emit(.disconnected(link.peripheral.id, reason: reason)) }
    }

    /// The error of an attempt that ran out of time: the link never came up (is the peripheral there?), or it came
    /// up on air and its setup (the MTU exchange, the database's check) took longer than the timeout left it.
    static func connectTimedOut(_ device: DeviceID, _ timeout: Duration, setupInterval: VirtualDuration?)
        -> AirlinkError
    {
        guard let interval = setupInterval else {
            return AirlinkError(
                .timeout,
                "connecting to \(device) did not complete within \(timeout); the attempt was cancelled "
                    + "(is it advertising, connectable and in range?)")
        }
        return AirlinkError(
            .timeout,
            "connecting to \(device) did not complete within \(timeout); the attempt was cancelled: the link came up "
                + "on air, but its setup (the MTU exchange, the GATT database's check) did not finish at a "
                + "\(interval.duration) connection interval (give the connect, or the strategy's attempts, a "
                + "longer timeout)")
    }
}
