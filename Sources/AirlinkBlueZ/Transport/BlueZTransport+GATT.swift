import AirlinkCore

extension BlueZTransport {
    /// The services BlueZ resolved, in handle order (BlueZ hides those its plugins claim, such as GAP).
    public func discoverServices(_ device: DeviceID, uuids: [BluetoothUUID]?) async throws(AirlinkError)
        -> [GATTService]
    {
        let context = "discover services of \(device)"
        let path = try devicePath(device)
        return try state.withLock { (state) throws(AirlinkError) -> [GATTService] in
            try checkReady(state, path: path, device: device, context: context)
            state.links[path]?.machine.servicesDiscovered()
            let services = state.tree.services(ofDevice: path).map(\.service)
            guard let uuids else { return services }
            return services.filter { uuids.contains($0.uuid) }
        }
    }

    /// A service's characteristics, in handle order.
    public func discoverCharacteristics(
        _ device: DeviceID, of service: GATTService, uuids: [BluetoothUUID]?
    ) async throws(AirlinkError) -> [GATTCharacteristic] {
        let context = "discover characteristics of \(service.uuid) on \(device)"
        let path = try devicePath(device)
        return try state.withLock { (state) throws(AirlinkError) -> [GATTCharacteristic] in
            try checkReady(state, path: path, device: device, context: context)
            let servicePath = try self.servicePath(service, device: path, in: state, context: context)
            let characteristics = state.tree.characteristics(ofService: servicePath).map(\.characteristic)
            guard let uuids else { return characteristics }
            return characteristics.filter { uuids.contains($0.uuid) }
        }
    }

    /// A characteristic's descriptors, in handle order (BlueZ lists the CCCD too).
    public func discoverDescriptors(
        _ device: DeviceID, of characteristic: GATTCharacteristic, in service: GATTService
    ) async throws(AirlinkError) -> [GATTDescriptor] {
        try descriptors(device, valueHandle: characteristic.valueHandle, uuid: characteristic.uuid)
    }

    /// The descriptors of the characteristic with this value handle (what ``discoverDescriptors(_:of:in:)`` returns).
    func descriptors(_ device: DeviceID, valueHandle: ATTHandle, uuid: BluetoothUUID) throws(AirlinkError)
        -> [GATTDescriptor]
    {
        let context = "discover descriptors of \(uuid) on \(device)"
        let path = try devicePath(device)
        let found = try state.withLock { (state) throws(AirlinkError) -> [GATTDescriptor]? in
            try checkReady(state, path: path, device: device, context: context)
            guard case .characteristic(let characteristicPath, _) = state.tree.attribute(valueHandle, ofDevice: path)
            else { return nil }
            return state.tree.descriptors(ofCharacteristic: characteristicPath).map { $0.descriptor }
        }
        guard let found else {
            throw AirlinkError(
                .characteristicNotFound,
                "\(device) has no characteristic \(uuid) at \(valueHandle) any more: its services changed; "
                    + "discover them again", context: context)
        }
        return found
    }

    /// Reads a characteristic value or descriptor by handle (`ReadValue`; BlueZ reads long values
    /// with Read Blob itself).
    public func read(_ device: DeviceID, handle: ATTHandle) async throws(AirlinkError) -> [UInt8] {
        let context = "read \(handle) on \(device)"
        let reply = try await gattCall(device, handle: handle, context: context) { attribute throws(AirlinkError) in
            let (path, interface) = Self.target(attribute)
            return try Self.message(path, interface, "ReadValue", [.properties([])], context: context)
        }
        return try Self.readValue(in: reply, handle: handle, context: context)
    }

    /// The value a reply to `ReadValue` carries (`ay`).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/malformedData`` for a reply without the value (an empty reply is
    ///   not an empty value) or with another signature.
    static func readValue(in reply: DBusMessage, handle: ATTHandle, context: String) throws(AirlinkError) -> [UInt8] {
        guard !reply.signature.isEmpty else {
            throw AirlinkError(
                .malformedData,
                "BlueZ's reply to ReadValue of \(handle) carried no value: the bytes (signature \"ay\") were missing; "
                    + "the read may be retried, and bluetoothd's log (journalctl -u bluetooth) may say why",
                context: context)
        }
        do throws(DBusError) {
            let arguments = try reply.arguments(expecting: "ay", context: "reply to ReadValue")
            guard let bytes = arguments.first?.bytes else {
                throw DBusError.malformed("reply to ReadValue has no byte array")
            }
            return bytes
        } catch {
            throw BlueZErrorMapping.map(error, operation: .gatt(handle), context: context)
        }
    }

    /// Writes a characteristic value or descriptor by handle (`WriteValue` with `type` `request` or
    /// `command`). A write to a CCCD (0x2902) turns notifications on or off through `StartNotify` and
    /// `StopNotify`, since BlueZ refuses direct CCCD writes.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a write without response longer than MTU − 3.
    public func write(_ device: DeviceID, handle: ATTHandle, value: [UInt8], type: WriteType) async throws(AirlinkError)
    {
        let context = "write \(handle) on \(device)"
        let path = try devicePath(device)
        let (attribute, mtu) = try state.withLock { (state) throws(AirlinkError) -> (BlueZObjectTree.Attribute, Int) in
            try checkReady(state, path: path, device: device, context: context)
            return (
                try self.attribute(handle, device: path, in: &state, context: context), self.mtu(of: path, in: state)
            )
        }
        if case .descriptor(_, let descriptor, let characteristicPath) = attribute,
            descriptor.uuid == .clientCharacteristicConfiguration
        {
            try await writeCCCD(
                device, characteristicPath: characteristicPath, value: value, handle: handle, context: context)
            return
        }
        if type == .withoutResponse && value.count > mtu - 3 {
            throw AirlinkError(
                .invalidArgument,
                "a write without response carries at most MTU − 3 = \(mtu - 3) bytes, not \(value.count); write with "
                    + "response for longer values", context: context)
        }
        _ = try await gattCall(device, handle: handle, context: context) { attribute throws(AirlinkError) in
            let (path, interface) = Self.target(attribute)
            var options: [(String, DBusValue)] = []
            if interface == BlueZInterface.gattCharacteristic { options.append(("type", .string(type.description))) }
            return try Self.message(
                path, interface, "WriteValue", [.bytes(value), .properties(options)], context: context)
        }
    }

    /// Turns notifications or indications on (`StartNotify`) or off (`StopNotify`). The characteristic
    /// is marked before the call, so a value BlueZ emits before `StartNotify` returns is delivered.
    public func setNotifications(
        _ device: DeviceID, characteristic: GATTCharacteristic, mode: NotificationMode
    ) async throws(AirlinkError) {
        let context = "\(mode) \(characteristic.uuid) on \(device)"
        let path = try devicePath(device)
        let target = try state.withLock { (state) throws(AirlinkError) -> String? in
            try checkReady(state, path: path, device: device, context: context)
            guard
                case .characteristic(let charPath, let found) = try attribute(
                    characteristic.valueHandle, device: path, in: &state, context: context)
            else {
                throw AirlinkError(
                    .characteristicNotFound, "\(characteristic.valueHandle) is not a characteristic value",
                    context: context)
            }
            let current = state.links[path]?.subscriptions[charPath]
            switch mode {
            case .disabled:
                guard current != nil else { return nil }
                state.links[path]?.subscriptions[charPath] = nil
            case .notify, .indicate:
                let needed: CharacteristicProperties = mode == .notify ? .notify : .indicate
                guard found.properties.contains(needed) else {
                    throw AirlinkError(
                        .operationNotSupported,
                        "characteristic \(found.uuid) cannot \(mode) (its properties are \(found.properties))",
                        context: context)
                }
                guard current == nil else { return nil }
                state.links[path]?.subscriptions[charPath] = mode
            }
            return charPath
        }
        guard let target else { return }
        do {
            _ = try await gattCall(device, handle: characteristic.valueHandle, context: context) {
                _ throws(AirlinkError) in
                try Self.message(
                    target, BlueZInterface.gattCharacteristic, mode == .disabled ? "StopNotify" : "StartNotify", [],
                    context: context)
            }
        } catch  where mode != .disabled && error.code == .operationInProgress {
            // BlueZ answers InProgress when this client's notify session exists already.
        } catch  where mode == .disabled && error.code != .linkLost {
            logger.debug("StopNotify: \(error)")
        } catch {
            if mode != .disabled { state.withLock { $0.links[path]?.subscriptions[target] = nil } }
            throw error
        }
    }

    private func writeCCCD(
        _ device: DeviceID, characteristicPath: String, value: [UInt8], handle: ATTHandle, context: String
    ) async throws(AirlinkError) {
        guard value.count == 2 else {
            throw AirlinkError(
                .attribute, "a Client Characteristic Configuration value has 2 bytes, not \(value.count)",
                cause: .att(.invalidAttributeValueLength, handle: handle), context: context)
        }
        let mode: NotificationMode =
            switch value[0] & 0x03 {
            case 0: .disabled
            case 1: .notify
            default: .indicate
            }
        let characteristic = try state.withLock { (state) throws(AirlinkError) -> GATTCharacteristic in
            guard let found = state.tree.characteristic(at: characteristicPath) else {
                throw AirlinkError(.characteristicNotFound, "the CCCD's characteristic is gone", context: context)
            }
            return found
        }
        try await setNotifications(device, characteristic: characteristic, mode: mode)
    }

    /// Sends a GATT call for an attribute of a ready link; the call fails promptly with
    /// ``/AirlinkCore/AirlinkError/Code/linkLost`` if the link drops first, with
    /// ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff`` if the adapter goes off, and with
    /// ``/AirlinkCore/AirlinkError/Code/cancelled`` if the task is cancelled.
    func gattCall(
        _ device: DeviceID, handle: ATTHandle, context: String,
        build: (BlueZObjectTree.Attribute) throws(AirlinkError) -> DBusMessage
    ) async throws(AirlinkError) -> DBusMessage {
        let path = try devicePath(device)
        return try await pendingCall(context: context, operation: .gatt(handle)) {
            (state) throws(AirlinkError) -> (DBusMessage, String) in
            try checkReady(state, path: path, device: device, context: context)
            return (try build(try attribute(handle, device: path, in: &state, context: context)), path)
        }
    }

    /// Throws unless the device's link is usable.
    func checkReady(_ state: BlueZTransportState, path: String, device: DeviceID, context: String) throws(AirlinkError)
    {
        try checkUsable(state, context: context)
        guard let link = state.links[path] else {
            throw AirlinkError(.deviceNotFound, "BlueZ does not know \(device); scan first", context: context)
        }
        guard link.machine.isReady else {
            throw AirlinkError(.notConnected, "\(device) is not connected; connect first", context: context)
        }
    }

    private func attribute(_ handle: ATTHandle, device: String, in state: inout BlueZTransportState, context: String)
        throws(AirlinkError) -> BlueZObjectTree.Attribute
    {
        guard let attribute = state.tree.attribute(handle, ofDevice: device) else {
            throw AirlinkError(
                .characteristicNotFound,
                "no characteristic value or descriptor has handle \(handle); if the device's services changed, "
                    + "discover them again", context: context)
        }
        return attribute
    }

    private func servicePath(_ service: GATTService, device: String, in state: BlueZTransportState, context: String)
        throws(AirlinkError) -> String
    {
        guard
            let found = state.tree.services(ofDevice: device).first(where: {
                $0.service.handles.lowerBound == service.handles.lowerBound && $0.service.uuid == service.uuid
            })
        else {
            throw AirlinkError(
                .serviceNotFound,
                "the device has no service \(service.uuid) at \(service.handles.lowerBound) any more: its services "
                    + "changed; discover them again", context: context)
        }
        return found.path
    }

    /// The negotiated ATT MTU BlueZ reports on the device's characteristics (`MTU`, BlueZ 5.62+), or 23.
    func mtu(of device: String, in state: BlueZTransportState) -> Int {
        for path in state.tree.paths(under: device, with: BlueZInterface.gattCharacteristic) {
            if let mtu = state.tree.properties(path, BlueZInterface.gattCharacteristic)?["MTU"]?.integer, mtu >= 23 {
                return mtu
            }
        }
        return 23
    }

    private static func target(_ attribute: BlueZObjectTree.Attribute) -> (String, String) {
        switch attribute {
        case .characteristic(let path, _): (path, BlueZInterface.gattCharacteristic)
        case .descriptor(let path, _, _): (path, BlueZInterface.gattDescriptor)
        }
    }

    private static func message(
        _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue], context: String
    ) throws(AirlinkError) -> DBusMessage {
        do {
            return try DBusMessage.methodCall(
                destination: BlueZInterface.service, path: path, interface: interface, member: member,
                arguments: arguments)
        } catch {
            throw BlueZErrorMapping.map(error, operation: .other, context: context)
        }
    }
}
