import AirlinkCore

extension BlueZTransport {
    /// Subscribes to BlueZ's signals and to org.bluez leaving the bus; handlers run on the loop thread.
    func subscribe() async throws(AirlinkError) {
        let rules =
            BlueZInterface.objectRules(under: "/org/bluez") + [
                DBusMatchRule(
                    sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                    arg0: BlueZInterface.service)
            ]
        do {
            for rule in rules {
                _ = try await connection.subscribe(rule) { [weak self] signal in self?.handle(signal) }
            }
        } catch {
            throw BlueZErrorMapping.map(error, operation: .objects, context: "subscribing to BlueZ's signals")
        }
        connection.onDisconnect { [weak self] reason in
            self?.transportLost("the D-Bus connection closed (\(reason))")
        }
    }

    /// Loads the object tree (after subscribing, so no change is missed) and creates link records.
    func load() async throws(AirlinkError) {
        let tree = try await Self.managedObjects(connection, timeout: min(configuration.operationTimeout, .seconds(10)))
        // Signals that arrived before this reply are in the snapshot already.
        update { state, _ in
            state.tree.replace(with: tree)
            createMissingLinks(&state)
        }
    }

    /// Creates a link record for every device of the adapter that has none.
    func createMissingLinks(_ state: inout BlueZTransportState) {
        for path in state.tree.paths(under: adapterPath, with: BlueZInterface.device) where state.links[path] == nil {
            guard let properties = state.tree.properties(path, BlueZInterface.device) else { continue }
            let device = BlueZDevice(path: path, properties: properties)
            guard let id = device.deviceID else { continue }
            let services = state.tree.services(ofDevice: path).count
            state.links[path] = BlueZLink(
                id: id,
                machine: BlueZLinkStateMachine(
                    connected: device.isConnected, resolved: device.servicesResolved, serviceCount: services))
        }
    }

    /// The device path an object path lies under, if it is one of this adapter's.
    func deviceOf(_ path: String) -> String? {
        guard path.hasPrefix(adapterPath + "/dev_") else { return nil }
        let elements = path.split(separator: "/")
        guard elements.count >= 4 else { return nil }
        return "/" + elements.prefix(4).joined(separator: "/")
    }

    /// Applies one signal (on the loop thread).
    func handle(_ signal: DBusSignal) {
        if signal.interface == "org.freedesktop.DBus" {
            guard let arguments = signal.arguments(expecting: "sss", loggingTo: logger),
                arguments.count == 3, arguments[0].string == BlueZInterface.service
            else { return }
            if arguments[2].string?.isEmpty == true {
                transportLost("bluetoothd (org.bluez) left the bus")
            }
            return
        }
        update { state, effects in
            guard !state.closed, state.lost == nil, signal.sender == state.owner else { return }
            do {
                switch (signal.interface, signal.member) {
                case (BlueZInterface.objectManager, "InterfacesAdded"):
                    let (path, interfaces) = try state.tree.apply(interfacesAdded: signal.message)
                    objectsAdded(path, interfaces, &state, &effects)
                case (BlueZInterface.objectManager, "InterfacesRemoved"):
                    let (path, interfaces) = try state.tree.apply(interfacesRemoved: signal.message)
                    objectsRemoved(path, interfaces, &state, &effects)
                case (BlueZInterface.properties, "PropertiesChanged"):
                    let (interface, changed) = try state.tree.apply(
                        propertiesChanged: signal.message, path: signal.path)
                    propertiesChanged(signal.path, interface, changed, &state, &effects)
                case (BlueZInterface.device, "Disconnected"):
                    let arguments = try signal.message.arguments(expecting: "ss", context: "Device1.Disconnected")
                    if let reason = arguments.first?.string {
                        feed(signal.path, .disconnectReason(Self.disconnectionReason(reason)), &state, &effects)
                    }
                default:
                    break
                }
            } catch {
                logger.warning("ignoring a malformed BlueZ signal: \(error)")
            }
        }
    }

    /// BlueZ's `org.bluez.Reason.*` as an HCI reason.
    static func disconnectionReason(_ name: String) -> DisconnectionReason {
        switch name {
        case "org.bluez.Reason.Local", "org.bluez.Reason.Suspend": .localHostTerminated
        case "org.bluez.Reason.Remote": .remoteUserTerminated
        case "org.bluez.Reason.Authentication": DisconnectionReason(rawValue: 0x05)
        default: .supervisionTimeout
        }
    }

    private func objectsAdded(
        _ path: String, _ interfaces: [String], _ state: inout BlueZTransportState, _ effects: inout BlueZEffects
    ) {
        if interfaces.contains(BlueZInterface.device), deviceOf(path) == path {
            createMissingLinks(&state)
            if let filter = state.scan, let properties = state.tree.properties(path, BlueZInterface.device) {
                advertise(BlueZDevice(path: path, properties: properties), filter: filter, &effects)
            }
        }
        if interfaces.contains(BlueZInterface.gattService), let device = deviceOf(path) {
            feed(device, .serviceObjectsChanged(count: state.tree.services(ofDevice: device).count), &state, &effects)
        } else if Self.isAttribute(interfaces), let device = deviceOf(path) {
            feed(device, .attributeObjectsChanged, &state, &effects)
        }
    }

    /// Whether the interfaces are a characteristic's or a descriptor's.
    private static func isAttribute(_ interfaces: [String]) -> Bool {
        interfaces.contains(BlueZInterface.gattCharacteristic) || interfaces.contains(BlueZInterface.gattDescriptor)
    }

    private func objectsRemoved(
        _ path: String, _ interfaces: [String], _ state: inout BlueZTransportState, _ effects: inout BlueZEffects
    ) {
        if path == adapterPath && interfaces.contains(BlueZInterface.adapter) {
            for device in state.links.keys.sorted() {
                feed(device, .transportLost("adapter \(adapterName) was removed"), &state, &effects)
            }
            state.scan = nil
            effects.events.append(.adapterStateChanged(.unavailable("adapter \(adapterName) was removed")))
            return
        }
        guard let device = deviceOf(path) else { return }
        if interfaces.contains(BlueZInterface.device), device == path {
            feed(device, .deviceRemoved, &state, &effects)
            if let link = state.links.removeValue(forKey: device) {
                for timer in link.timers { connection.cancelTimer(timer) }
                let waiters = link.disconnectWaiters
                effects.work.append { for waiter in waiters { waiter.resume(.success(())) } }
            }
            return
        }
        if interfaces.contains(BlueZInterface.gattCharacteristic) {
            state.links[device]?.subscriptions[path] = nil
        }
        if interfaces.contains(BlueZInterface.gattService) {
            feed(device, .serviceObjectsChanged(count: state.tree.services(ofDevice: device).count), &state, &effects)
        } else if Self.isAttribute(interfaces) {
            feed(device, .attributeObjectsChanged, &state, &effects)
        }
    }

    private func propertiesChanged(
        _ path: String, _ interface: String, _ changed: BlueZObjectTree.Properties, _ state: inout BlueZTransportState,
        _ effects: inout BlueZEffects
    ) {
        switch interface {
        case BlueZInterface.adapter where path == adapterPath:
            if let powered = changed["Powered"]?.bool {
                if !powered { adapterPoweredOff(&state, &effects) }
                effects.events.append(.adapterStateChanged(powered ? .poweredOn : .poweredOff))
            }
        case BlueZInterface.device where deviceOf(path) == path:
            let connected = changed["Connected"]?.bool
            let resolved = changed["ServicesResolved"]?.bool
            if connected == true { feed(path, .connectedChanged(true), &state, &effects) }
            if let resolved { feed(path, .servicesResolvedChanged(resolved), &state, &effects) }
            if connected == false {
                feed(path, .connectedChanged(false), &state, &effects)
                if let waiters = state.links[path]?.disconnectWaiters, !waiters.isEmpty {
                    state.links[path]?.disconnectWaiters = []
                    effects.work.append { for waiter in waiters { waiter.resume(.success(())) } }
                }
            }
            if let bonded = changed["Bonded"]?.bool ?? (changed["Paired"]?.bool == false ? false : nil),
                let properties = state.tree.properties(path, BlueZInterface.device),
                let id = BlueZDevice(path: path, properties: properties).deviceID
            {
                effects.events.append(.bondChanged(id, bonded: bonded))
            }
            if let filter = state.scan, !BlueZDevice.advertisingProperties.isDisjoint(with: changed.keys),
                let properties = state.tree.properties(path, BlueZInterface.device)
            {
                advertise(BlueZDevice(path: path, properties: properties), filter: filter, &effects)
            }
        case BlueZInterface.gattCharacteristic:
            guard let value = changed["Value"]?.bytes, let device = deviceOf(path), let link = state.links[device],
                link.machine.isReady, link.subscriptions[path] != nil,
                let declaration = BlueZPath.handle(of: path, prefix: "char"), declaration.rawValue < 0xFFFF
            else { return }
            effects.events.append(.notification(link.id, handle: ATTHandle(declaration.rawValue + 1), value: value))
        default:
            break
        }
    }

    /// The adapter went off (bluetoothd says so before the links drop): every link ends and every
    /// pending operation, connection attempt and scan call fails at once with `adapterPoweredOff`.
    private func adapterPoweredOff(_ state: inout BlueZTransportState, _ effects: inout BlueZEffects) {
        state.scan = nil
        for device in state.links.keys.sorted() { feed(device, .adapterPoweredOff(adapterName), &state, &effects) }
        let operations = state.operations.sorted { $0.key < $1.key }.map(\.value)
        state.operations.removeAll()
        let error = AirlinkError(
            .adapterPoweredOff, "adapter \(adapterName) was powered off: run `bluetoothctl power on`")
        let waiters = state.links.keys.sorted().flatMap { state.links[$0]?.disconnectWaiters ?? [] }
        for device in state.links.keys { state.links[device]?.disconnectWaiters = [] }
        effects.work.append {
            for operation in operations { operation.fail(error) }
            for waiter in waiters { waiter.resume(.success(())) }
        }
    }

    private func advertise(_ device: BlueZDevice, filter: ScanFilter, _ effects: inout BlueZEffects) {
        guard let id = device.deviceID, device.rssi != nil else { return }
        let advertisement = device.advertisement
        guard filter.admits(advertisement) else { return }
        effects.events.append(.advertisement(id, advertisement))
    }

    /// BlueZ or the bus went away: every link is down, every pending operation fails, the adapter is
    /// unavailable, and the event streams end after saying so (on the loop thread, or the caller's once
    /// the loop has ended).
    func transportLost(_ why: String) {
        var lost = false
        update { state, effects in
            guard state.lost == nil, !state.closed else { return }
            lost = true
            for device in state.links.keys.sorted() { feed(device, .transportLost(why), &state, &effects) }
            state.lost = why
            state.scan = nil
            let operations = state.operations.sorted { $0.key < $1.key }.map(\.value)
            state.operations.removeAll()
            let error = AirlinkError(.linkLost, "BlueZ went away (\(why)); open the transport again")
            let waiters = state.links.values.flatMap(\.disconnectWaiters)
            effects.work.append {
                for operation in operations { operation.fail(error) }
                for waiter in waiters { waiter.resume(.success(())) }
            }
            effects.events.append(.adapterStateChanged(.unavailable(why)))
        }
        // Nothing more can happen on this transport: a new one is needed.
        if lost { broadcaster.finish() }
    }
}
