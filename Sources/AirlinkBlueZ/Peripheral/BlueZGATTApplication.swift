import AirlinkCore
import Synchronization

/// The objects an app exports for bluetoothd's GATT server (BlueZ doc/gatt-api.rst): an
/// ObjectManager at the root, a GattService1 per service, a GattCharacteristic1 per characteristic,
/// a GattDescriptor1 per descriptor, and an LEAdvertisement1 (doc/advertising-api.rst).
///
/// bluetoothd calls `ReadValue`, `WriteValue`, `StartNotify` and `StopNotify`; this object answers
/// through the characteristics' behaviours (`onRead`, the value check, `onWrite`) and sends values
/// to subscribers as `PropertiesChanged` of `Value`. Methods run on the D-Bus loop thread.
final class BlueZGATTApplication: Sendable {
    static let serviceInterface = "org.bluez.GattService1"
    static let characteristicInterface = "org.bluez.GattCharacteristic1"
    static let descriptorInterface = "org.bluez.GattDescriptor1"
    static let advertisementInterface = "org.bluez.LEAdvertisement1"
    static let properties = "org.freedesktop.DBus.Properties"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"

    /// One exported characteristic.
    struct CharacteristicObject: Sendable {
        var path: String
        var servicePath: String
        var serviceUUID: BluetoothUUID
        var spec: CharacteristicSpec
        var descriptors: [(path: String, descriptor: GATTServerDefinition.Descriptor)]
    }

    struct State {
        var values: [String: [UInt8]] = [:]
        var notifying: [String: Bool] = [:]
        var advertising: Advertising?
    }

    let root: String
    let name: String
    let services: [Service]
    let characteristics: [CharacteristicObject]
    let state = Mutex(State())
    let context: BlueZPeripheralContext
    /// Emits signals; set once exported.
    let emit: @Sendable (_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]) -> Void
    let report: @Sendable (PeripheralEvent) -> Void

    init(
        root: String, name: String, services: [Service], context: BlueZPeripheralContext,
        emit: @escaping @Sendable (String, String, String, [DBusValue]) -> Void,
        report: @escaping @Sendable (PeripheralEvent) -> Void
    ) {
        self.root = root
        self.name = name
        self.services = services
        self.context = context
        self.emit = emit
        self.report = report
        var characteristics: [CharacteristicObject] = []
        var values: [String: [UInt8]] = [:]
        for (serviceIndex, service) in services.enumerated() {
            let servicePath = "\(root)/service\(serviceIndex)"
            for (index, spec) in service.characteristics.enumerated() {
                let path = "\(servicePath)/char\(index)"
                let descriptors = spec.descriptors.enumerated().map { ("\(path)/desc\($0.offset)", $0.element) }
                characteristics.append(
                    CharacteristicObject(
                        path: path, servicePath: servicePath, serviceUUID: service.uuid, spec: spec,
                        descriptors: descriptors))
                values[path] = spec.initialValue
            }
        }
        self.characteristics = characteristics
        state.withLock { $0.values = values }
    }

    var advertisementPath: String { "\(root)/advertisement0" }

    // MARK: Objects and properties

    /// The value of GetManagedObjects: every object with its interfaces and properties.
    func managedObjects() -> DBusValue {
        var entries: [DBusDictionaryEntry] = []
        func add(_ path: String, _ interface: String, _ properties: [(String, DBusValue)]) {
            let interfaces = DBusValue.dictionary(
                keySignature: "s", valueSignature: "a{sv}",
                [DBusDictionaryEntry(key: .string(interface), value: .properties(properties))])
            entries.append(DBusDictionaryEntry(key: .objectPath(path), value: interfaces))
        }
        for (index, service) in services.enumerated() {
            add("\(root)/service\(index)", Self.serviceInterface, serviceProperties(service))
        }
        for characteristic in characteristics {
            add(characteristic.path, Self.characteristicInterface, characteristicProperties(characteristic))
            for descriptor in characteristic.descriptors {
                add(descriptor.path, Self.descriptorInterface, descriptorProperties(descriptor, of: characteristic))
            }
        }
        return .dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", entries)
    }

    func serviceProperties(_ service: Service) -> [(String, DBusValue)] {
        [
            ("UUID", .string(service.uuid.uuidString.lowercased())), ("Primary", .boolean(service.isPrimary)),
            ("Includes", .array(elementSignature: "o", [])),
        ]
    }

    func characteristicProperties(_ characteristic: CharacteristicObject) -> [(String, DBusValue)] {
        let (value, notifying) = state.withLock {
            ($0.values[characteristic.path] ?? [], $0.notifying[characteristic.path] ?? false)
        }
        return [
            ("UUID", .string(characteristic.spec.uuid.uuidString.lowercased())),
            ("Service", .objectPath(characteristic.servicePath)), ("Value", .bytes(value)),
            ("Notifying", .boolean(notifying)), ("Flags", .strings(Self.flags(characteristic.spec))),
        ]
    }

    func descriptorProperties(
        _ descriptor: (path: String, descriptor: GATTServerDefinition.Descriptor),
        of characteristic: CharacteristicObject
    ) -> [(String, DBusValue)] {
        [
            ("UUID", .string(descriptor.descriptor.uuid.uuidString.lowercased())),
            ("Characteristic", .objectPath(characteristic.path)), ("Value", .bytes(descriptor.descriptor.value)),
            ("Flags", .strings(Self.flags(descriptor.descriptor))),
        ]
    }

    func advertisementProperties(_ advertising: Advertising) -> [(String, DBusValue)] {
        let advertisement = advertising.advertisement
        var properties: [(String, DBusValue)] = [("Type", .string("peripheral"))]
        if let name = advertisement.localName { properties.append(("LocalName", .string(name.name))) }
        if !advertisement.serviceUUIDs.isEmpty {
            properties.append(("ServiceUUIDs", .strings(advertisement.serviceUUIDs.map { $0.uuidString.lowercased() })))
        }
        if !advertisement.manufacturerData.isEmpty {
            properties.append(
                (
                    "ManufacturerData",
                    .dictionary(
                        keySignature: "q", valueSignature: "v",
                        advertisement.manufacturerData.map {
                            DBusDictionaryEntry(key: .uint16($0.companyID), value: .variant(.bytes($0.data)))
                        })
                ))
        }
        return properties
    }

    /// BlueZ's flag names for characteristic properties (gatt-api.rst, "Flags").
    static func flags(_ properties: CharacteristicProperties) -> [String] {
        var flags: [String] = []
        if properties.contains(.broadcast) { flags.append("broadcast") }
        if properties.contains(.read) { flags.append("read") }
        if properties.contains(.writeWithoutResponse) { flags.append("write-without-response") }
        if properties.contains(.write) { flags.append("write") }
        if properties.contains(.notify) { flags.append("notify") }
        if properties.contains(.indicate) { flags.append("indicate") }
        return flags
    }

    // MARK: Values

    /// The stored value of a characteristic.
    func value(at path: String) -> [UInt8] { state.withLock { $0.values[path] ?? [] } }

    /// Stores a value; sends it to subscribers (PropertiesChanged of Value) when `notify` and subscribed.
    func store(_ bytes: [UInt8], at path: String, notify: Bool) {
        let notifying = state.withLock { state in
            state.values[path] = bytes
            return state.notifying[path] ?? false
        }
        guard notify, notifying else { return }
        emit(
            path, Self.properties, "PropertiesChanged",
            [
                .string(Self.characteristicInterface), .properties([("Value", .bytes(bytes))]),
                .array(elementSignature: "s", []),
            ])
    }

    /// The characteristic object for a UUID (in a service, if given).
    func characteristic(_ uuid: BluetoothUUID, in service: BluetoothUUID?) -> CharacteristicObject? {
        characteristics.first { $0.spec.uuid == uuid && (service == nil || $0.serviceUUID == service) }
    }
}
