import AirlinkCore
import CDBus

@testable import AirlinkBlueZ

/// D-Bus messages as the BlueZ backend decodes them: the input is a message in the D-Bus wire format,
/// which libdbus validates (`dbus_message_demarshal`) as it does every message it receives.
///
/// The contract: decoding the arguments never traps and fails only with `malformed` or
/// `unexpectedSignature`; the decoded values, appended to a new message, decode to the same values;
/// reading the message as a `GetManagedObjects` reply, an `InterfacesAdded`, `InterfacesRemoved` or
/// `PropertiesChanged` signal, or an error reply never traps, and an error maps to an `AirlinkError`
/// for every operation; every device, service, characteristic and descriptor in the tree reads.
let dbusReplyTarget = FuzzTarget(name: "dbus-reply") { bytes in
    let name = "dbus-reply"
    guard let message = demarshal(bytes) else { return }
    let arguments: [DBusValue]
    do throws(AirlinkBlueZ.DBusError) {
        arguments = try message.arguments()
    } catch {
        switch error {
        case .malformed, .unexpectedSignature: return
        default: violated(name, "decoding threw \(error)")
        }
    }
    checkReencoding(arguments, name)
    var tree = (try? BlueZObjectTree(managedObjects: message)) ?? BlueZObjectTree()
    _ = try? tree.apply(interfacesAdded: message)
    readTree(tree)
    _ = try? tree.apply(propertiesChanged: message, path: message.path ?? "/")
    _ = try? tree.apply(interfacesRemoved: message)
    readTree(tree)
    if let error = message.error {
        for operation in [BlueZOperation.connect, .disconnect, .scan, .gatt(nil), .gatt(ATTHandle(3)), .objects] {
            _ = BlueZErrorMapping.map(error, operation: operation, context: "fuzz")
        }
    }
}

/// The message in `bytes`, if libdbus accepts them as one.
private func demarshal(_ bytes: [UInt8]) -> DBusMessage? {
    guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { return nil }
    var error = CDBus.DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    let pointer = bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
    }
    return pointer.map { DBusMessage(taking: $0) }
}

/// Decoded values survive being appended to a new message and decoded again.
private func checkReencoding(_ arguments: [DBusValue], _ name: String) {
    guard let pointer = dbus_message_new(DBusTypeCode.methodReturnMessage) else { return }
    let copy = DBusMessage(taking: pointer)
    do {
        try copy.append(arguments)
        let again = try copy.arguments()
        guard again == arguments || "\(again)" == "\(arguments)" else {
            violated(name, "re-encoded arguments decode differently: \(again) vs \(arguments)")
        }
    } catch {
        violated(name, "decoded arguments do not encode again: \(error)")
    }
}

/// Reads everything the transport reads of a tree: devices and their GATT objects.
private func readTree(_ tree: BlueZObjectTree) {
    for path in tree.paths(under: "", with: BlueZInterface.device) {
        guard let properties = tree.properties(path, BlueZInterface.device) else { continue }
        let device = BlueZDevice(path: path, properties: properties)
        _ = (device.deviceID, device.name, device.alias, device.rssi, device.txPower, device.uuids)
        _ = (device.isConnected, device.servicesResolved, device.isPaired, device.advertisement)
        for (service, _) in tree.services(ofDevice: path) {
            for (characteristic, _) in tree.characteristics(ofService: service) {
                _ = tree.descriptors(ofCharacteristic: characteristic)
                _ = tree.characteristic(at: characteristic)
            }
        }
    }
}
