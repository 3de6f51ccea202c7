import AirlinkCore

extension BlueZGATTApplication {
    /// Answers a method call bluetoothd (or anyone) makes on an exported object.
    func handle(_ message: DBusMessage) -> DBusMethodReply {
        guard let path = message.path, let interface = message.interface, let member = message.member else {
            return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no such method")
        }
        let arguments: [DBusValue]
        switch message.callArguments {
        case .success(let read): arguments = read
        case .failure(let error): return .unreadableArguments(error)
        }
        switch (interface, member) {
        case (Self.objectManager, "GetManagedObjects") where path == root:
            return .values([managedObjects()])
        case (Self.properties, "GetAll"):
            guard let properties = properties(of: path, interface: arguments.first?.string) else { break }
            return .values([.properties(properties)])
        case (Self.properties, "Get"):
            guard arguments.count == 2, let name = arguments[1].string,
                let value = properties(of: path, interface: arguments[0].string)?.first(where: { $0.0 == name })?.1
            else { break }
            return .values([.variant(value)])
        case (Self.characteristicInterface, "ReadValue"):
            guard let characteristic = characteristics.first(where: { $0.path == path }) else { break }
            return readValue(characteristic)
        case (Self.characteristicInterface, "WriteValue"):
            guard let characteristic = characteristics.first(where: { $0.path == path }),
                let bytes = arguments.first?.bytes
            else { break }
            return writeValue(bytes, to: characteristic, sender: message.sender)
        case (Self.characteristicInterface, "StartNotify"), (Self.characteristicInterface, "StopNotify"):
            guard let characteristic = characteristics.first(where: { $0.path == path }) else { break }
            return setNotifying(member == "StartNotify", characteristic, sender: message.sender)
        case (Self.descriptorInterface, "ReadValue"):
            for characteristic in characteristics {
                if let descriptor = characteristic.descriptors.first(where: { $0.path == path }) {
                    return .values([.bytes(descriptor.descriptor.value)])
                }
            }
        case (Self.advertisementInterface, "Release") where path == advertisementPath:
            return .values([])
        default:
            break
        }
        return .error(
            name: "org.freedesktop.DBus.Error.UnknownMethod", message: "\(path) has no method \(interface).\(member)")
    }

    /// The properties of one exported object for an interface.
    func properties(of path: String, interface: String?) -> [(String, DBusValue)]? {
        if path == advertisementPath, interface == Self.advertisementInterface {
            return state.withLock { $0.advertising }.map(advertisementProperties)
        }
        if let index = services.indices.first(where: { "\(root)/service\($0)" == path }),
            interface == Self.serviceInterface
        {
            return serviceProperties(services[index])
        }
        for characteristic in characteristics {
            if characteristic.path == path, interface == Self.characteristicInterface {
                return characteristicProperties(characteristic)
            }
            if let descriptor = characteristic.descriptors.first(where: { $0.path == path }),
                interface == Self.descriptorInterface
            {
                return descriptorProperties(descriptor, of: characteristic)
            }
        }
        return nil
    }

    func readValue(_ characteristic: CharacteristicObject) -> DBusMethodReply {
        guard characteristic.spec.properties.contains(.read) else { return Self.reply(.readNotPermitted) }
        if let onRead = characteristic.spec.onRead {
            do throws(ATTRefusal) {
                let bytes = try onRead(context)
                store(bytes, at: characteristic.path, notify: false)
                return .values([.bytes(bytes)])
            } catch {
                return Self.reply(error.error)
            }
        }
        return .values([.bytes(value(at: characteristic.path))])
    }

    func writeValue(_ bytes: [UInt8], to characteristic: CharacteristicObject, sender: String?) -> DBusMethodReply {
        let properties = characteristic.spec.properties
        guard properties.contains(.write) || properties.contains(.writeWithoutResponse) else {
            return Self.reply(.writeNotPermitted)
        }
        guard bytes.count <= 512 else { return Self.reply(.invalidAttributeValueLength) }
        if let refusal = characteristic.spec.validate(bytes) { return Self.reply(refusal) }
        if let onWrite = characteristic.spec.onWrite {
            do throws(ATTRefusal) {
                try onWrite(context, bytes)
            } catch {
                return Self.reply(error.error)
            }
        }
        store(bytes, at: characteristic.path, notify: characteristic.spec.echoesWrites)
        return .values([])
    }

    func setNotifying(_ on: Bool, _ characteristic: CharacteristicObject, sender: String?) -> DBusMethodReply {
        guard characteristic.spec.properties.canSubscribe else {
            return .error(
                name: "org.bluez.Error.NotSupported", message: "the characteristic neither notifies nor indicates")
        }
        let changed = state.withLock { state in
            defer { state.notifying[characteristic.path] = on }
            return (state.notifying[characteristic.path] ?? false) != on
        }
        if changed {
            emit(
                characteristic.path, Self.properties, "PropertiesChanged",
                [
                    .string(Self.characteristicInterface), .properties([("Notifying", .boolean(on))]),
                    .array(elementSignature: "s", []),
                ])
            // try?: DeviceID(opaque:) refuses only an empty identifier
            let central = (try? DeviceID(opaque: "bluez:\(sender ?? "bluetoothd")")) ?? "id:bluez"
            let mode: NotificationMode =
                on ? (characteristic.spec.properties.contains(.notify) ? .notify : .indicate) : .disabled
            report(
                .subscriptionChanged(
                    central, service: characteristic.serviceUUID, characteristic: characteristic.spec.uuid, mode: mode))
        }
        return .values([])
    }

    /// The error bluetoothd turns back into an ATT error (src/gatt-database.c): named errors where
    /// BlueZ has one, else `Failed` with the code in the text, which BlueZ and Airlink's mapping parse.
    static func reply(_ error: ATTError) -> DBusMethodReply {
        switch error {
        case .readNotPermitted, .writeNotPermitted:
            .error(name: "org.bluez.Error.NotPermitted", message: "\(error)")
        case .invalidAttributeValueLength:
            .error(name: "org.bluez.Error.InvalidValueLength", message: "\(error)")
        case .invalidOffset: .error(name: "org.bluez.Error.InvalidOffset", message: "\(error)")
        case .insufficientAuthorization: .error(name: "org.bluez.Error.NotAuthorized", message: "\(error)")
        case .requestNotSupported: .error(name: "org.bluez.Error.NotSupported", message: "\(error)")
        default:
            .error(
                name: "org.bluez.Error.Failed",
                message: "Operation failed with ATT error: 0x" + String(error.rawValue, radix: 16).leftPadded(2))
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
