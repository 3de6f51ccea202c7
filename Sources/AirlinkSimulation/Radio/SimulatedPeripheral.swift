import AirlinkCore

/// A peripheral on a simulation's air: its identity, its values and the faults to inject, as verbs
/// named for what happens on air.
///
/// Every verb acts at once (in virtual time) and records a `fault` line in the trace; ``schedule(_:after:)``
/// applies one later.
public struct SimulatedPeripheral: Sendable {
    let model: RadioPeripheral

    init(model: RadioPeripheral) { self.model = model }

    private var world: RadioWorld { model.world }

    /// The peripheral's identifier.
    public var id: DeviceID { model.spec.id }

    /// The peripheral's name.
    public var name: String { model.spec.name }

    /// The spec it was created from.
    public var spec: PeripheralSpec { model.spec }

    /// The peripheral's firmware view: values, state, notifications (the same context behaviours get).
    public var context: any PeripheralContext { model }

    /// How many centrals are connected.
    public var connectionCount: Int { world.lock.withLock { model.links.count } }

    /// Where it stands now.
    public var position: Position { world.lock.withLock { model.position } }

    /// The current value of a characteristic, decoded.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/characteristicNotFound``,
    ///   ``/AirlinkCore/AirlinkError/Code/malformedData``.
    public func value<Value: GATTValue>(
        of characteristic: BluetoothUUID, in service: BluetoothUUID? = nil, as type: Value.Type = Value.self
    ) throws(AirlinkError) -> Value {
        try model.value(of: characteristic, in: service, as: type)
    }

    /// Stores a value and notifies subscribed centrals.
    public func setValue<Value: GATTValue>(
        _ value: Value, of characteristic: BluetoothUUID, in service: BluetoothUUID? = nil
    ) throws(AirlinkError) {
        try model.setValue(value, of: characteristic, in: service)
    }

    /// The centrals it keeps a bond with (from pairing), in the order they first bonded.
    public var bondedCentrals: [DeviceID] { world.lock.withLock { model.bonds.map(\.central) } }

    /// Forgets every bond, as a factory reset of its pairing data does: a central that encrypts with its bond
    /// then meets PIN or Key Missing (``/AirlinkCore/AirlinkError/Code/bondLost``).
    public func forgetBonds() { world.lock.withLock { model.forgetBonds() } }

    /// The value handle of a characteristic in the current database.
    public func valueHandle(of characteristic: BluetoothUUID, in service: BluetoothUUID? = nil) throws(AirlinkError)
        -> ATTHandle
    {
        try world.lock.withLock { () throws(AirlinkError) -> ATTHandle in
            try model.valueHandle(of: characteristic, in: service)
        }
    }

    // MARK: Faults

    /// Ends every link from the peripheral's side (default reason 0x13, remote user terminated).
    public func dropLink(reason: DisconnectionReason = .remoteUserTerminated) {
        world.lock.withLock { model.dropLinks(reason: reason) }
    }

    /// Goes out of range: no more advertisements are heard, links are lost after their supervision
    /// timeout (reason 0x08).
    public func moveOutOfRange() { world.lock.withLock { model.setOutOfRange(true) } }

    /// Comes back in range.
    public func moveBackInRange() { world.lock.withLock { model.setOutOfRange(false) } }

    /// Moves to a position (the RSSI follows; far enough away is out of range).
    public func move(to position: Position) { world.lock.withLock { model.move(to: position) } }

    /// The next `count` connection attempts fail as `failure` describes.
    ///
    /// Each failure belongs to one attempt, of any central: the attempt takes it at the first
    /// connectable advertising event it meets. A `.noAnswer` attempt stays pending until its own
    /// timeout, and later advertising events pass it over, so `count` attempts fail whatever the
    /// failure. Calls add up, in order: `failNextConnects(1, with: .noAnswer)` then
    /// `failNextConnects(1, with: .abortedByLocal)` fail the next attempt by timeout, the one after by
    /// abort.
    public func failNextConnects(_ count: Int, with failure: ConnectFailure = .abortedByLocal) {
        world.lock.withLock {
            world.record("fault", "\(id) will fail the next \(count) connection attempt(s): \(failure)")
            model.connectFailures += Array(repeating: failure, count: max(0, count))
        }
    }

    /// Answers the next `times` matching requests with an ATT Error Response.
    public func respond(to operation: ATTOperation, with error: ATTError, times: Int = 1) {
        addRule(operation, .error(error), times: times, "will answer \(operation) with \(error)")
    }

    /// Never answers the next `times` matching requests (the central's timeouts fire).
    public func neverRespond(to operation: ATTOperation, times: Int = 1) {
        addRule(operation, .noResponse, times: times, "will not answer \(operation)")
    }

    /// Delays the answers to the next `times` matching requests by `delay`.
    public func delayResponses(to operation: ATTOperation = .any, by delay: Duration, times: Int = 1) {
        addRule(
            operation, .delay(VirtualDuration(delay)), times: times,
            "will delay answers to \(operation) by \(delay.traceDescription)")
    }

    private func addRule(
        _ operation: ATTOperation, _ response: RadioPeripheral.ATTFaultRule.Response, times: Int, _ text: String
    ) {
        world.lock.withLock {
            world.record("fault", "\(id) \(text) (\(times)×)")
            model.attFaults.append(.init(operation: operation, response: response, remaining: max(1, times)))
        }
    }

    /// Reboots: links are lost after their supervision timeout, values and state return to the spec's.
    public func reset() { world.lock.withLock { model.reset() } }

    /// Replaces the services (a firmware update): subscribed centrals get a Service Changed indication
    /// and report `.servicesChanged`.
    public func changeDatabase(@ServiceBuilder _ services: () -> [Service]) {
        let services = services()
        world.lock.withLock { model.changeDatabase(services) }
    }

    /// Replaces the services without a Service Changed indication, as a firmware that forgets to tell
    /// its centrals: their cached handles go stale without their knowing.
    public func changeDatabaseSilently(_ services: [Service]) {
        world.lock.withLock { model.changeDatabase(services, announce: false) }
    }

    /// Installs new firmware (``FirmwareUpdate``): the database changes, with or without Service Changed, with
    /// the new hash or the old one. Connected centrals that enabled robust caching get Database Out Of Sync on
    /// their next request; bonded centrals that are away learn of it when they come back.
    public func updateFirmware(_ update: FirmwareUpdate) {
        world.lock.withLock { model.updateFirmware(update) }
    }

    /// What the peripheral's GATT server keeps for caching about a central: its Client Supported Features,
    /// whether it is change-aware, a Service Changed range it has not confirmed (Core Spec Vol 3, Part G,
    /// 2.5.2.1). `nil` if the central is neither connected nor remembered (a central without a bond is forgotten
    /// when its link ends).
    public func cachingState(ofCentral central: DeviceID) -> ATTClientCachingState? {
        world.lock.withLock {
            if let link = model.links.first(where: { $0.central.address == central }) { return link.server.clientState }
            return model.rememberedClients.first { $0.address == central }?.state
        }
    }

    /// Stops advertising.
    public func stopAdvertising() {
        world.lock.withLock {
            world.record("fault", "\(id) stops advertising")
            model.isAdvertisingEnabled = false
        }
    }

    /// Starts advertising again.
    public func startAdvertising() {
        world.lock.withLock {
            world.record("fault", "\(id) starts advertising")
            model.isAdvertisingEnabled = model.spec.advertising != nil
        }
    }

    /// Sends `count` notifications of a characteristic at once, the values from `value(index)`
    /// (by default the current value).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/characteristicNotFound``,
    ///   ``/AirlinkCore/AirlinkError/Code/operationNotSupported``.
    public func burstNotifications(
        of characteristic: BluetoothUUID, in service: BluetoothUUID? = nil, count: Int,
        value: (@Sendable (Int) -> [UInt8])? = nil
    ) throws(AirlinkError) {
        try world.lock.withLock { () throws(AirlinkError) in
            world.record("fault", "\(id) bursts \(count) notifications of \(characteristic)")
            let current = try model.bytes(of: characteristic, in: service)
            let handle = try model.notifiableValueHandle(of: characteristic, in: service)
            for index in 0..<count { model.send(value?(index) ?? current, for: handle) }
        }
    }

    /// Applies a fault `delay` from now.
    public func schedule(_ fault: RadioFault, after delay: Duration) {
        let peripheral = self
        world.lock.withLock {
            world.schedule(at: world.now + VirtualDuration(delay)) { peripheral.apply(fault) }
        }
    }

    /// Applies a fault now.
    public func apply(_ fault: RadioFault) {
        switch fault {
        case .dropLink(let reason): dropLink(reason: reason)
        case .moveOutOfRange: moveOutOfRange()
        case .moveBackInRange: moveBackInRange()
        case .move(let position): move(to: position)
        case .failNextConnects(let count, let failure): failNextConnects(count, with: failure)
        case .respond(let operation, let error, let times): respond(to: operation, with: error, times: times)
        case .neverRespond(let operation, let times): neverRespond(to: operation, times: times)
        case .delayResponses(let operation, let delay, let times):
            delayResponses(to: operation, by: delay, times: times)
        case .reset: reset()
        case .changeDatabase(let services): world.lock.withLock { model.changeDatabase(services) }
        case .updateFirmware(let update): updateFirmware(update)
        case .burstNotifications(let characteristic, let count):
            do {
                try burstNotifications(of: characteristic, count: count)
            } catch {
                world.lock.withLock { world.record("fault", "\(id) burst refused: \(error.message)") }
            }
        case .powerOffAdapter, .powerOnAdapter:
            world.lock.withLock { world.record("fault", "\(fault) is an adapter fault; schedule it on the radio") }
        }
    }
}
