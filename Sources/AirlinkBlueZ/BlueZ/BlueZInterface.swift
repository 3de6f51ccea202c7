/// BlueZ's D-Bus names (BlueZ doc/org.bluez.*.rst).
package enum BlueZInterface {
    package static let service = "org.bluez"
    package static let adapter = "org.bluez.Adapter1"
    package static let device = "org.bluez.Device1"
    package static let gattService = "org.bluez.GattService1"
    package static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    package static let gattDescriptor = "org.bluez.GattDescriptor1"
    package static let objectManager = "org.freedesktop.DBus.ObjectManager"
    package static let properties = "org.freedesktop.DBus.Properties"
}

extension BlueZInterface {
    /// The match rules for following BlueZ's objects below `path`: objects added and removed,
    /// property changes, and `Device1.Disconnected` (the reason of a link's end, BlueZ 5.82+).
    package static func objectRules(under path: String) -> [DBusMatchRule] {
        [
            DBusMatchRule(sender: service, interface: objectManager),
            DBusMatchRule(sender: service, interface: properties, member: "PropertiesChanged", pathNamespace: path),
            DBusMatchRule(sender: service, interface: device, member: "Disconnected", pathNamespace: path),
        ]
    }
}
