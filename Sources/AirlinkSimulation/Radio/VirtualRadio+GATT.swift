import AirlinkCore

extension VirtualRadio {
    /// The usable link to `device`, or the error an operation on it earns.
    func usableLink(_ device: DeviceID, _ what: @autoclosure () -> String) throws(AirlinkError) -> Link {
        assertConfined()
        try checkPowered(what())
        guard let link = links[device], link.isUp, !link.isClosed else {
            throw AirlinkError(.notConnected, "cannot \(what()): \(device) is not connected; connect first")
        }
        return link
    }

    /// Queues a procedure on the link to `device` and waits for its result.
    ///
    /// The operation's 30 s run from this call, its wait behind other operations on the link
    /// included: one still unfinished then fails with ``/AirlinkCore/AirlinkError/Code/timeout`` (a request still
    /// on air keeps the bearer until its own transaction timeout closes the link). An operation sent
    /// at once needs no timer of its own until it sends a second request: its first request's
    /// transaction timeout falls at its deadline.
    @inline(__always)
    nonisolated(nonsending) func perform<Procedure: GATTProcedure>(
        _ device: DeviceID, _ what: @autoclosure @Sendable () -> String, scope: LinkHandleScope,
        _ makeProcedure: (Link) throws(AirlinkError) -> Procedure
    ) async throws(AirlinkError) -> Procedure.Success {
        try await perform(
            device, what(), scope: scope,
            operation: { link throws(AirlinkError) in
                ProcedureOperation(try makeProcedure(link))
            })
    }

    /// Queues an operation on the link to `device` and waits for its result (``perform(_:_:_:)``, for
    /// an operation of a subclass: ``ReadOperation``, ``WriteOperation``).
    nonisolated(nonsending) func perform<Procedure: GATTProcedure>(
        _ device: DeviceID, _ what: @autoclosure @Sendable () -> String, scope: LinkHandleScope,
        operation makeOperation: (Link) throws(AirlinkError) -> ProcedureOperation<Procedure>
    ) async throws(AirlinkError) -> Procedure.Success {
        let lock = world.lock
        let operation = try lock.withLock { () throws(AirlinkError) -> ProcedureOperation<Procedure> in
            let link = try usableLink(device, what())
            if !link.staleRanges.isEmpty { try link.checkTrusted(scope, what()) }
            let operation = try makeOperation(link)
            operation.scope = scope
            let queued = !link.operations.isEmpty || link.awaitingResponse
            link.enqueue(operation)
            if queued {
                let name = what()  // described only when queued: descriptions cost more than requests
                link.armDeadline(of: operation) { name }
            }
            return operation
        }
        let result = await withTaskCancellationHandler {
            await operation.wait(lock: lock)
        } onCancel: {
            lock.withLock { operation.fail(AirlinkError(.cancelled, "\(what()) on \(device) was cancelled")) }
        }
        return try result.get()
    }

    /// Discovers primary services over ATT (Read By Group Type, or Find By Type Value for one UUID).
    public func discoverServices(_ device: DeviceID, uuids: [BluetoothUUID]?) async throws(AirlinkError)
        -> [GATTService]
    {
        let single = uuids?.count == 1 ? uuids?.first : nil
        let services = try await perform(device, "discover services", scope: .rediscovery) { _ in
            DiscoverPrimaryServicesProcedure(uuid: single)
        }
        guard let uuids else { return services }
        return services.filter { uuids.contains($0.uuid) }
    }

    /// Discovers the characteristics of a service (Read By Type 0x2803).
    public func discoverCharacteristics(
        _ device: DeviceID, of service: GATTService, uuids: [BluetoothUUID]?
    ) async throws(AirlinkError) -> [GATTCharacteristic] {
        let characteristics = try await perform(
            device, "discover characteristics of \(service.uuid)", scope: .handles(service.handles)
        ) { _ in
            DiscoverCharacteristicsProcedure(of: service)
        }
        guard let uuids else { return characteristics }
        return characteristics.filter { uuids.contains($0.uuid) }
    }

    /// Discovers the descriptors of a characteristic (Find Information from its value to its next
    /// declaration).
    public func discoverDescriptors(
        _ device: DeviceID, of characteristic: GATTCharacteristic, in service: GATTService
    ) async throws(AirlinkError) -> [GATTDescriptor] {
        try await discoverDescriptors(device, of: characteristic, through: service.handles.upperBound)
    }

    /// Discovers the descriptors of a characteristic whose service ends at `end` (Find Information
    /// from the handle after its value up to its next declaration, Core Spec Vol 3, Part G, 4.7.1).
    ///
    /// - Parameters:
    ///   - device: the connected peripheral.
    ///   - characteristic: the characteristic.
    ///   - end: the last handle of the characteristic's service.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/notConnected``, ``/AirlinkCore/AirlinkError/Code/linkLost``,
    ///   ``/AirlinkCore/AirlinkError/Code/attribute``.
    public func discoverDescriptors(
        _ device: DeviceID, of characteristic: GATTCharacteristic, through end: ATTHandle
    ) async throws(AirlinkError) -> [GATTDescriptor] {
        let start = characteristic.valueHandle.rawValue
        let range = start < end.rawValue ? ATTHandle(start + 1)...end : nil
        let scope = LinkHandleScope.handles(characteristic.valueHandle...max(characteristic.valueHandle, end))
        let found = try await perform(device, "discover descriptors of \(characteristic.uuid)", scope: scope) { _ in
            DiscoverDescriptorsProcedure(range: range)
        }
        return Self.beforeNextDeclaration(found)
    }

    /// The descriptors up to the next declaration (Find Information reports every attribute of the range).
    private static func beforeNextDeclaration(_ found: [GATTDescriptor]) -> [GATTDescriptor] {
        var descriptors: [GATTDescriptor] = []
        for descriptor in found {
            let type = descriptor.uuid
            if type == .characteristicDeclaration || type == .primaryServiceDeclaration
                || type == .secondaryServiceDeclaration || type == .includeDeclaration
            {
                break
            }
            descriptors.append(descriptor)
        }
        return descriptors
    }

    /// Reads the first attribute of `type` with one Read By Type Request over every handle
    /// (``ReadByTypeValueProcedure``); `nil` when the peripheral has none.
    public func readValue(_ device: DeviceID, ofType type: BluetoothUUID) async throws(AirlinkError) -> [UInt8]? {
        try await perform(device, "read \(type) by type", scope: .none) { _ in ReadByTypeValueProcedure(type: type) }
    }

    /// Reads a whole value: a Read Request, then Read Blob Requests while parts come full.
    public nonisolated(nonsending) func read(_ device: DeviceID, handle: ATTHandle) async throws(AirlinkError)
        -> [UInt8]
    {
        try await perform(device, "read \(handle)", scope: .handles(handle...handle)) { link in
            ReadOperation(ReadLongValueProcedure(handle: handle, mtu: link.mtu))
        }
    }

    /// Writes a value: a Write Request (or Prepared Writes past MTU − 3 bytes), or a Write Command.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a command longer than MTU − 3;
    ///   ``/AirlinkCore/AirlinkError/Code/attribute`` when the peripheral refuses.
    public nonisolated(nonsending) func write(
        _ device: DeviceID, handle: ATTHandle, value: [UInt8], type: WriteType
    ) async throws(AirlinkError) {
        switch type {
        case .withResponse:
            let long = try world.lock.withLock { () throws(AirlinkError) in
                value.count > Int(try usableLink(device, "write \(handle)").mtu) - 3
            }
            if long {
                try await perform(device, "write \(handle)", scope: .handles(handle...handle)) { link in
                    WriteLongValueProcedure(handle: handle, value: value, mtu: link.mtu)
                }
            } else {
                try await perform(device, "write \(handle)", scope: .handles(handle...handle)) { _ in
                    WriteOperation(WriteRequestProcedure(handle: handle, value: value))
                }
            }
        case .withoutResponse:
            try world.lock.withLock { () throws(AirlinkError) in
                let link = try usableLink(device, "write \(handle) without response")
                if !link.staleRanges.isEmpty {
                    try link.checkTrusted(.handles(handle...handle), "write \(handle) without response")
                }
                guard value.count <= Int(link.mtu) - 3 else {
                    throw AirlinkError(
                        .invalidArgument,
                        "a write without response carries at most MTU − 3 = \(Int(link.mtu) - 3) bytes, not "
                            + "\(value.count); write with response for longer values")
                }
                link.sendToPeripheral(.writeCommand(handle: handle, value: value))
            }
        }
    }

    /// Finds the characteristic's CCCD and writes it.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/operationNotSupported`` when the characteristic has no CCCD;
    ///   ``/AirlinkCore/AirlinkError/Code/attribute`` when the peripheral refuses the mode (Value Not Allowed).
    public func setNotifications(
        _ device: DeviceID, characteristic: GATTCharacteristic, mode: NotificationMode
    ) async throws(AirlinkError) {
        try await setNotifications(device, characteristic: characteristic, mode: mode, client: 0)
    }

    /// One client's notifications of a characteristic (the radio itself is client 0, each
    /// ``VirtualRadioSession`` another), as bluetoothd keeps one notify session per D-Bus client: the CCCD
    /// is written when the first client enables, and turned off only when the last one disables, so that
    /// one app's `disabled` never stops another app's values. The clients are forgotten with the link,
    /// and when the peripheral's database changes (the app restores its own).
    ///
    /// A client's choice counts from the call, not from its write's response: a client disabling while
    /// another's enable is still on air leaves the CCCD on. If that enable then fails and no client is
    /// left, the disable that was skipped for it is written then.
    func setNotifications(
        _ device: DeviceID, characteristic: GATTCharacteristic, mode: NotificationMode, client: Int
    ) async throws(AirlinkError) {
        let handle = characteristic.valueHandle
        let what = "set notifications of \(characteristic.uuid)"
        let (link, written, previous) = try world.lock.withLock {
            () throws(AirlinkError) -> (Link, NotificationMode?, NotificationMode?) in
            let link = try usableLink(device, what)
            var clients = link.notificationClients[handle] ?? []
            let previous = clients.first { $0.client == client }?.mode
            clients.removeAll { $0.client == client }
            if mode != .disabled { clients.append((client, mode)) }
            link.notificationClients[handle] = clients
            guard mode == .disabled, let remaining = clients.last?.mode else {
                if mode == .disabled { link.cccdDisableOwed.remove(handle) }
                return (link, mode, previous)
            }
            // Another client still wants them: written only if it wants another mode than this one's.
            if previous != nil { link.cccdDisableOwed.insert(handle) }
            return (link, previous == nil || previous == remaining ? nil : remaining, previous)
        }
        guard let written else { return }
        do throws(AirlinkError) {
            try await configure(device, characteristic, written, what)
        } catch {
            let owed = world.lock.withLock { () -> Bool in
                guard links[device] === link, !link.isClosed else { return false }
                var clients = link.notificationClients[handle] ?? []
                clients.removeAll { $0.client == client }
                if let previous { clients.append((client, previous)) }
                link.notificationClients[handle] = clients
                guard clients.isEmpty, mode != .disabled else { return false }
                return link.cccdDisableOwed.remove(handle) != nil
            }
            // A disable skipped while this enable was on air: no client wants them now.
            // try?: the caller hears the enable's error, what it asked about; a disable that fails as well (the
            // link is gone, most often) has the clients forgotten already, and nobody left to tell
            if owed { try? await configure(device, characteristic, .disabled, what) }
            throw error
        }
    }

    /// Writes a characteristic's CCCD (found once per link, then cached).
    private func configure(
        _ device: DeviceID, _ characteristic: GATTCharacteristic, _ mode: NotificationMode, _ what: String
    ) async throws(AirlinkError) {
        let handle = characteristic.valueHandle
        let scope = LinkHandleScope.handles(characteristic.declarationHandle...characteristic.valueHandle)
        let cccd = try await perform(device, what, scope: scope) { link in
            ConfigureNotificationsProcedure(
                characteristic: characteristic, mode: mode, knownCCCD: link.cccdCache[handle])
        }
        world.lock.withLock { links[device]?.cccdCache[handle] = cccd }
    }

    /// The RSSI of a connected peripheral from the path-loss model, with noise.
    public func readRSSI(_ device: DeviceID) async throws(AirlinkError) -> Int {
        try world.lock.withLock { () throws(AirlinkError) -> Int in
            let link = try usableLink(device, "read the RSSI of \(device)")
            let peripheral = link.peripheral
            return Int(
                world.pathLoss.rssi(
                    measuredPower: peripheral.spec.measuredPower, distance: peripheral.position.distance,
                    random: world.random))
        }
    }

    /// The link's parameters.
    public func linkInfo(_ device: DeviceID) async throws(AirlinkError) -> LinkInfo {
        try world.lock.withLock { () throws(AirlinkError) -> LinkInfo in try usableLink(device, "read link info").info }
    }
}
