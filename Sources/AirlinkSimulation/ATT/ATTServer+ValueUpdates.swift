import AirlinkCore

extension ATTServer {
    /// Sends the value of `handle` as a Handle Value Notification, truncated to ATT_MTU − 3 bytes as real
    /// links do (Core Spec Vol 3, Part F, 3.4.7.1; Vol 3, Part G, 4.10).
    ///
    /// The stored value does not change; use ``updateValue(_:for:)`` for that. A change-unaware client with
    /// robust caching gets nothing until it catches up (Vol 3, Part G, 2.5.2.1).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` if `handle` is no characteristic value;
    ///   ``/AirlinkCore/AirlinkError/Code/operationNotSupported`` if the characteristic cannot notify or the client has
    ///   not enabled notifications in its CCCD.
    public mutating func notify(_ value: [UInt8], for handle: ATTHandle) throws(AirlinkError) -> [Action] {
        try checkSubscribed(handle, bit: 0x0001, property: .notify, kind: "notifications")
        guard mayUpdateClient(about: handle) else { return [] }
        return [.send(.handleValueNotification(handle: handle, value: Array(value.prefix(Int(mtu) - 3))))]
    }

    /// Sends the value of `handle` as a Handle Value Indication, truncated to ATT_MTU − 3 bytes; while one
    /// awaits its confirmation, later ones wait in order (Vol 3, Part F, 3.4.7.2 and 3.3.2).
    ///
    /// - Throws: as ``notify(_:for:)``, for indications.
    public mutating func indicate(_ value: [UInt8], for handle: ATTHandle) throws(AirlinkError) -> [Action] {
        try checkSubscribed(handle, bit: 0x0002, property: .indicate, kind: "indications")
        guard mayUpdateClient(about: handle) else { return [] }
        return enqueueIndication(PendingIndication(handle: handle, value: Array(value.prefix(Int(mtu) - 3))))
    }

    /// Stores a new value for `handle` and notifies or indicates it if the client subscribed; a
    /// characteristic with no subscriber just changes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` if there is no attribute at `handle` or the value
    ///   is over 512 bytes.
    public mutating func updateValue(_ value: [UInt8], for handle: ATTHandle) throws(AirlinkError) -> [Action] {
        try database.setValue(value, for: handle)
        let bits = clientConfiguration(forValue: handle)
        var actions: [Action] = []
        if bits & 0x0001 != 0 { actions += try notify(value, for: handle) }
        if bits & 0x0002 != 0 { actions += try indicate(value, for: handle) }
        return actions
    }

    /// Whether an indication awaits the client's confirmation.
    public var isAwaitingConfirmation: Bool { indicationInFlight != nil }

    /// The number of indications waiting behind the one in flight.
    public var queuedIndicationCount: Int { pendingIndications.count }

    /// Replaces the database, as a peripheral's firmware update does, and indicates the affected handle range
    /// on Service Changed if the database serves it and the client enabled it (Vol 3, Part G, 7.1).
    ///
    /// CCCDs inside the range are reset, the prepare queue is dropped, and queued indications for handles
    /// in the range are discarded. The client becomes change-unaware (Vol 3, Part G, 2.5.2.1) until it confirms
    /// the indication, or reads the Database Hash or gets Database Out Of Sync and then sends another request.
    ///
    /// - Parameters:
    ///   - newDatabase: the database the server serves from now on.
    ///   - announce: whether to indicate Service Changed; `false` is a firmware that changes its
    ///     database silently (the client's cached handles go stale without its knowing).
    /// - Returns: the actions to perform, and the affected range (`nil` if the structure did not change).
    public mutating func replaceDatabase(
        with newDatabase: AttributeDatabase, announce: Bool = true
    ) -> (actions: [Action], changed: ClosedRange<ATTHandle>?) {
        let changed = newDatabase.changedHandles(comparedWith: database)
        database = newDatabase
        prepareQueue = []
        guard let changed else { return ([], nil) }
        cccdValues = cccdValues.filter { !changed.contains($0.key) }
        pendingIndications.removeAll { changed.contains($0.handle) }
        guard announce, let serviceChanged = database.serviceChangedHandle,
            clientConfiguration(forValue: serviceChanged) & 0x0002 != 0
        else {
            clientState.databaseChanged(changed, announced: false)
            return ([], changed)
        }
        clientState.databaseChanged(changed, announced: true)
        return (enqueueServiceChanged(changed, serviceChanged), changed)
    }

    /// ATT_HANDLE_VALUE_CFM: frees the link for the next queued indication (Vol 3, Part F, 3.4.7.3).
    mutating func confirmIndication() -> [Action] {
        guard let confirmed = indicationInFlight else { return [] }
        indicationInFlight = nil
        if confirmed == database.serviceChangedHandle {
            clientState.unconfirmedServiceChange = nil
            clientState.becameChangeAware()
        }
        var actions: [Action] = [.indicationConfirmed(handle: confirmed)]
        if let next = pendingIndications.popFirst() { actions += enqueueIndication(next) }
        return actions
    }

    mutating func enqueueIndication(_ indication: PendingIndication) -> [Action] {
        guard indicationInFlight == nil else {
            pendingIndications.append(indication)
            return []
        }
        indicationInFlight = indication.handle
        return [.send(.handleValueIndication(handle: indication.handle, value: indication.value))]
    }

    private func checkSubscribed(
        _ handle: ATTHandle, bit: UInt16, property: CharacteristicProperties, kind: String
    ) throws(AirlinkError) {
        guard case .characteristicValue(let properties, _) = database[handle]?.role else {
            throw AirlinkError(.invalidArgument, "\(handle) is not a characteristic value; \(kind) need one")
        }
        guard properties.contains(property) else {
            throw AirlinkError(
                .operationNotSupported, "characteristic at \(handle) has properties \(properties), without \(kind)")
        }
        let bits = clientConfiguration(forValue: handle)
        guard bits & bit != 0 else {
            throw AirlinkError(
                .operationNotSupported,
                "the client has not enabled \(kind) for \(handle): its CCCD is \(bits); send only after it "
                    + "subscribes")
        }
    }
}
