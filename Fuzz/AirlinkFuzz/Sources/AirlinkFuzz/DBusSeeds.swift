import CDBus
import Foundation

@testable import AirlinkBlueZ

/// Writes the dbus-reply corpus's seeds: messages as BlueZ sends them, marshalled to the wire format
/// (run the binary with `AIRLINK_FUZZ_WRITE_DBUS_SEEDS=Fuzz/Corpus/dbus-reply`). Valid messages are hard
/// for a fuzzer to find from nothing; from these it mutates within the format.
func writeDBusSeeds(to directory: String) {
    let device = "/org/bluez/hci0/dev_C0_FF_EE_00_00_01"
    let service = device + "/service0010"
    let characteristic = service + "/char0011"
    func variants(_ properties: [(String, DBusValue)]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            properties.map { DBusDictionaryEntry(key: .string($0.0), value: .variant($0.1)) })
    }
    let deviceProperties = variants([
        ("Address", .string("C0:FF:EE:00:00:01")), ("AddressType", .string("public")), ("Name", .string("Thermostat")),
        ("Alias", .string("Thermostat")), ("RSSI", .int16(-52)), ("TxPower", .int16(4)), ("Connected", .boolean(true)),
        ("ServicesResolved", .boolean(true)), ("Paired", .boolean(false)),
        ("UUIDs", .array(elementSignature: "s", [.string("0000180f-0000-1000-8000-00805f9b34fb")])),
        (
            "ManufacturerData",
            .dictionary(
                keySignature: "q", valueSignature: "v",
                [DBusDictionaryEntry(key: .uint16(0x004C), value: .variant(.bytes([0x02, 0x15])))])
        ),
        (
            "ServiceData",
            .dictionary(
                keySignature: "s", valueSignature: "v",
                [
                    DBusDictionaryEntry(
                        key: .string("0000180f-0000-1000-8000-00805f9b34fb"), value: .variant(.bytes([87])))
                ])
        ),
    ])
    let serviceProperties = variants([
        ("UUID", .string("0000180f-0000-1000-8000-00805f9b34fb")), ("Device", .objectPath(device)),
        ("Primary", .boolean(true)), ("Handle", .uint16(0x10)),
    ])
    let characteristicProperties = variants([
        ("UUID", .string("00002a19-0000-1000-8000-00805f9b34fb")), ("Service", .objectPath(service)),
        ("Flags", .array(elementSignature: "s", [.string("read"), .string("notify")])), ("Value", .bytes([87])),
        ("Handle", .uint16(0x11)), ("Notifying", .boolean(false)),
    ])
    func interfaces(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "a{sv}",
            entries.map { DBusDictionaryEntry(key: .string($0.0), value: $0.1) })
    }
    let objects: DBusValue = .dictionary(
        keySignature: "o", valueSignature: "a{sa{sv}}",
        [
            DBusDictionaryEntry(
                key: .objectPath(device), value: interfaces([(BlueZInterface.device, deviceProperties)])),
            DBusDictionaryEntry(
                key: .objectPath(service), value: interfaces([(BlueZInterface.gattService, serviceProperties)])),
            DBusDictionaryEntry(
                key: .objectPath(characteristic),
                value: interfaces([(BlueZInterface.gattCharacteristic, characteristicProperties)])),
        ])
    let seeds: [(String, Int32, [DBusValue])] = [
        ("managed-objects", DBusTypeCode.methodReturnMessage, [objects]),
        (
            "interfaces-added", DBusTypeCode.signalMessage,
            [.objectPath(device), interfaces([(BlueZInterface.device, deviceProperties)])]
        ),
        (
            "interfaces-removed", DBusTypeCode.signalMessage,
            [.objectPath(device), .array(elementSignature: "s", [.string(BlueZInterface.device)])]
        ),
        (
            "properties-changed", DBusTypeCode.signalMessage,
            [.string(BlueZInterface.device), deviceProperties, .array(elementSignature: "s", [.string("RSSI")])]
        ),
        ("read-value", DBusTypeCode.methodReturnMessage, [.bytes([0x57, 0x00])]),
        ("error", DBusTypeCode.errorMessage, [.string("Operation failed with ATT error: 0x0e")]),
    ]
    for (name, type, arguments) in seeds {
        guard let pointer = dbus_message_new(type) else { continue }
        let message = DBusMessage(taking: pointer)
        dbus_message_set_serial(pointer, 7)
        if type == DBusTypeCode.methodReturnMessage || type == DBusTypeCode.errorMessage {
            dbus_message_set_reply_serial(pointer, 3)
        }
        if type == DBusTypeCode.errorMessage { dbus_message_set_error_name(pointer, "org.bluez.Error.Failed") }
        if type == DBusTypeCode.signalMessage {
            dbus_message_set_path(pointer, name == "properties-changed" ? device : "/")
            dbus_message_set_interface(
                pointer, name == "properties-changed" ? BlueZInterface.properties : BlueZInterface.objectManager)
            dbus_message_set_member(
                pointer,
                name == "properties-changed"
                    ? "PropertiesChanged" : name == "interfaces-added" ? "InterfacesAdded" : "InterfacesRemoved")
        }
        try! message.append(arguments)
        var raw: UnsafeMutablePointer<CChar>? = nil
        var length: Int32 = 0
        guard dbus_message_marshal(pointer, &raw, &length) != 0, let raw else { continue }
        let data = Data(bytes: raw, count: Int(length))
        dbus_free(raw)
        _ = FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: data)
    }
}

/// libFuzzer calls this once before fuzzing: the seed writer runs here, and exits.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
    if let directory = ProcessInfo.processInfo.environment["AIRLINK_FUZZ_WRITE_DBUS_SEEDS"] {
        writeDBusSeeds(to: directory)
        exit(0)
    }
    _ = selectedTarget.name
    return 0
}
