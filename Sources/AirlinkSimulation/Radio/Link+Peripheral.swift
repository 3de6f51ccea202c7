import AirlinkCore

extension Link {
    /// A PDU arrived at the peripheral: injected faults first, then the firmware's behaviours, then
    /// the ATT server.
    func receiveAtPeripheral(_ payload: LinkPayload) {
        assertConfined()
        // try?: a malformed PDU is traced as such and the server answers its bytes (Invalid PDU, Vol 3, Part F,
        // 3.4.1.1), which is what a peripheral tells a central; the decoder's reason goes nowhere on air
        guard let pdu = try? payload.decoded() else {
            world.record("att", "\(central.tracePrefix)\(peripheral.idText) > malformed \(payload.count)-byte PDU")
            performServerActions(server.handle(payload.bytes))
            return
        }
        world.recordPDU(self, .toPeripheral, pdu, payload)
        peripheral.catchUpUpdates()
        if let fault = peripheral.matchFault(pdu) {
            switch fault {
            case .error(let error):
                world.record("fault", "\(central.tracePrefix)\(peripheral.idText) answers \(pdu.opcode) with \(error)")
                if !pdu.opcode.isCommand {
                    sendToCentral(.errorResponse(request: pdu.opcode, handle: Self.handle(of: pdu), error: error))
                }
                return
            case .noResponse:
                world.record("fault", "\(central.tracePrefix)\(peripheral.idText) does not answer \(pdu.opcode)")
                return
            case .delay(let delay):
                world.record(
                    "fault",
                    "\(central.tracePrefix)\(peripheral.idText) delays its answer to \(pdu.opcode) "
                        + "by \(delay.duration.traceDescription)"
                )
                world.schedule(at: world.now + delay) { [self] in
                    guard !isClosed, peripheralAlive else { return }
                    process(pdu)
                }
                return
            }
        }
        process(pdu)
    }

    /// Runs the characteristic's behaviours, then lets the server answer. A request robust caching holds
    /// (``ATTServer/robustCachingGate(_:)``) reaches no behaviour.
    private func process(_ pdu: ATTPDU) {
        if let held = server.robustCachingGate(pdu) {
            performServerActions(held)
            return
        }
        switch pdu {
        case .readRequest(let handle):
            if let onRead = peripheral.readBehaviour(valueHandle: handle), Self.permitsRead(&server, handle) {
                do {
                    let value = try onRead(peripheral)
                    storeFromFirmware(value, at: handle, notify: false, "read behaviour's value")
                } catch {
                    sendToCentral(.errorResponse(request: .readRequest, handle: handle, error: error.error))
                    return
                }
            }
            sendToCentral(Self.readResponse(&server, to: handle))
            return
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value):
            let opcode = pdu.opcode
            if let entry = peripheral.entry(valueHandle: handle), let attribute = server.database[handle],
                server.writeError(attribute) == nil, value.count <= AttributeDatabase.maximumValueLength
            {
                var refusal = entry.spec.validate(value)
                if refusal == nil, let onWrite = entry.spec.onWrite {
                    do { try onWrite(peripheral, value) } catch { refusal = error.error }
                }
                if let refusal {
                    if !opcode.isCommand {
                        sendToCentral(.errorResponse(request: opcode, handle: handle, error: refusal))
                    }
                    return
                }
            }
        case .executeWriteRequest(commit: true):
            if let refusal = refusalOfExecutedWrites(pdu) {
                _ = server.handle(.executeWriteRequest(commit: false))  // clears the queue, writes nothing
                sendToCentral(
                    .errorResponse(request: .executeWriteRequest, handle: refusal.handle, error: refusal.error))
                return
            }
        default:
            break
        }
        performServerActions(server.handle(pdu))
    }

    /// Checks long writes as single writes are checked (the value type, then `onWrite`) before they
    /// execute: the server runs on a copy, and the first refusal of a value it would write is returned.
    private func refusalOfExecutedWrites(_ pdu: ATTPDU) -> (handle: ATTHandle, error: ATTError)? {
        var trial = server
        for action in trial.handle(pdu) {
            guard case .valueWritten(let handle, let value) = action, let entry = peripheral.entry(valueHandle: handle)
            else { continue }
            if let error = entry.spec.validate(value) { return (handle, error) }
            if let onWrite = entry.spec.onWrite {
                do { try onWrite(peripheral, value) } catch { return (handle, error.error) }
            }
        }
        return nil
    }

    /// Stores a value the peripheral's firmware takes on (a read behaviour's answer, a value a client wrote);
    /// one its database refuses (over 512 bytes) is traced with the reason, and the central is answered from
    /// what the database holds.
    private func storeFromFirmware(_ value: [UInt8], at handle: ATTHandle, notify: Bool, _ what: String) {
        do {
            try peripheral.store(value, for: handle, notify: notify)
        } catch {
            world.record(
                "peripheral",
                "\(central.tracePrefix)\(peripheral.idText) \(handle) \(what) not stored: \(error.message)")
        }
    }

    /// Performs what the server asked for: PDUs to send, written values to share with the firmware.
    func performServerActions(_ actions: [ATTServer.Action]) {
        assertConfined()
        for action in actions {
            switch action {
            case .send(let pdu):
                sendToCentral(pdu)
            case .valueWritten(let handle, let value):
                let echo = peripheral.entry(valueHandle: handle)?.spec.echoesWrites ?? false
                storeFromFirmware(value, at: handle, notify: echo, "written value")
            case .subscriptionChanged(let valueHandle, let notify, let indicate):
                world.record(
                    .subscriptionChanged(
                        adapter: central.adapterIndex, device: peripheral.id, valueHandle: valueHandle, notify: notify,
                        indicate: indicate))
                if notify || indicate { peripheral.armUpdateTimer() }
                peripheral.host?.subscriptionChanged(self, valueHandle: valueHandle, notify: notify, indicate: indicate)
            case .mtuChanged, .indicationConfirmed:
                break
            }
        }
    }

    /// Whether the server lets the client read `handle` now. The server is passed `inout` (here and in
    /// ``readResponse(_:to:)``) so that a read does not copy it, its tables retained and released, for
    /// each call on the class's stored property (about 400 instructions a read, Docs/Performance.md).
    @inline(__always)
    private static func permitsRead(_ server: inout ATTServer, _ handle: ATTHandle) -> Bool {
        guard let attribute = server.database[handle] else { return false }
        return server.readError(attribute) == nil
    }

    /// The server's answer to a Read Request (see ``permitsRead(_:_:)``).
    @inline(__always)
    private static func readResponse(_ server: inout ATTServer, to handle: ATTHandle) -> ATTPDU {
        server.readResponse(to: handle)
    }

    /// The handle a request names, for an Error Response.
    static func handle(of pdu: ATTPDU) -> ATTHandle { pdu.handleInError }
}
