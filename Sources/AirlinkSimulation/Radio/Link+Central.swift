import AirlinkCore

extension Link {
    /// A PDU arrived at the central: a notification or indication becomes an event, anything else
    /// answers the procedure in flight.
    func receiveAtCentral(_ payload: LinkPayload) {
        assertConfined()
        if let host = central.host {
            deliverToHost(payload, host)
            return
        }
        let pdu: ATTPDU
        do {
            pdu = try payload.decoded()
        } catch {
            world.record("att", "\(central.tracePrefix)\(peripheral.idText) < malformed: \(error.message)")
            return
        }
        world.recordPDU(self, .toCentral, pdu, payload)
        switch pdu {
        case .handleValueNotification(let handle, let value):
            central.emit(.notification(peripheral.id, handle: handle, value: value))
        case .handleValueIndication(let handle, let value):
            sendToPeripheral(.handleValueConfirmation)
            if handle == serviceChangedHandle {
                cccdCache = [:]
                notificationClients = [:]
                cccdDisableOwed = []
                let range = Self.changedRange(value)
                serviceChanged(range)
                central.emit(.servicesChanged(peripheral.id, range: range))
            } else {
                central.emit(.notification(peripheral.id, handle: handle, value: value))
            }
        default:
            handleResponse(pdu)
        }
    }

    /// Queues a procedure; it starts when those before it finish.
    func enqueue(_ operation: LinkOperation) {
        assertConfined()
        #if DEBUG
            operation.confiningLock = world.lock
        #endif
        operation.issuedAt = world.now
        operations.append(operation)
        if operations.count == 1, !awaitingResponse { startNext() }
    }

    private func startNext() {
        while let operation = operations.first {
            if operation.startedAt == nil { operation.startedAt = world.now }
            let step = operation.isFinished ? .finished : operation.start()
            switch step {
            case .send(let pdu):
                transmitRequest(pdu)
                return
            case .finished:
                operations.removeFirst()
            }
        }
    }

    private func transmitRequest(_ pdu: ATTPDU) {
        awaitingResponse = true
        requestDeadline = world.now + Self.transactionTimeout
        armRequestTimer()
        sendToPeripheral(pdu)
    }

    private func handleResponse(_ pdu: ATTPDU) {
        guard awaitingResponse, let operation = operations.first else {
            world.record(
                "att", "\(central.tracePrefix)\(peripheral.idText) < unexpected \(pdu.opcode), no request in flight")
            return
        }
        awaitingResponse = false
        requestDeadline = nil
        let step = operation.isFinished ? .finished : operation.handle(pdu)
        switch step {
        case .send(let next):
            if !operation.deadlineArmed { armDeadline(of: operation, nil) }  // a later request, a later timeout
            transmitRequest(next)
        case .finished:
            operations.removeFirst()
            rediscovered(by: operation)
            startNext()
        }
    }

    /// Fails `operation` with `timeout` if it has not finished 30 s after it was queued: the caller's
    /// deadline (the Transport contract), its wait behind other operations included. A request then
    /// still on air keeps the bearer until its own transaction timeout closes the link.
    ///
    /// - Parameters:
    ///   - operation: the queued operation.
    ///   - what: what it does, for the message (`nil`: a procedure the radio runs itself).
    func armDeadline(of operation: LinkOperation, _ what: (@Sendable () -> String)?) {
        assertConfined()
        operation.deadlineArmed = true
        let issued = operation.issuedAt
        world.schedule(at: issued + Self.transactionTimeout) { [self] in
            guard !operation.isFinished, !isClosed else { return }
            if awaitingResponse, operations.first === operation, let deadline = requestDeadline, deadline <= world.now {
                return  // its request's own transaction timeout ends it now, and the link with it
            }
            let waited = ((operation.startedAt ?? world.now) - issued).duration
            let name = what?() ?? "the link's own procedure"
            world.record(
                "att",
                "\(central.tracePrefix)\(peripheral.idText) \(name) timed out 30 s after it was issued "
                    + "(\(waited.traceDescription) waiting for its turn)")
            operation.fail(
                AirlinkError(
                    .timeout,
                    "\(name) on \(peripheral.id) did not complete within 30 s of being issued, "
                        + "\(waited.traceDescription) of it waiting behind other operations on the link "
                        + "(ATT's transaction timeout, Core Spec Vol 3, Part F, 3.3.3)"))
        }
    }

    /// One timer per link watches the request in flight: unanswered for 30 s, it fails with `timeout`
    /// and the link is closed, as the ATT transaction timeout requires (Core Spec Vol 3, Part F, 3.3.3).
    private func armRequestTimer() {
        guard requestTimerAt == nil, let deadline = requestDeadline else { return }
        requestTimerAt = deadline
        world.schedule(at: deadline) { [self] in
            requestTimerAt = nil
            guard !isClosed, awaitingResponse, let deadline = requestDeadline else { return }
            guard deadline <= world.now else {
                armRequestTimer()
                return
            }
            world.record(
                "att", "\(central.tracePrefix)\(peripheral.idText) request timed out after 30 s; closing the link")
            let error = AirlinkError(
                .timeout,
                "\(central.tracePrefix)\(peripheral.idText) did not answer an ATT request within 30 s "
                    + "(Core Spec Vol 3, Part F, 3.3.3); "
                    + "the link is closed")
            operations.first?.fail(error)
            drop(reason: .localHostTerminated)
        }
    }
}
