import AirlinkCore

extension BlueZGATTApplication {
    /// BlueZ's flags for what a characteristic's or descriptor's permissions require of a central's link
    /// (BlueZ doc/org.bluez.GattCharacteristic.rst, "Flags"): bluetoothd answers a central short of it with
    /// Insufficient Encryption or Authentication, as the virtual radio does.
    ///
    /// Authentication is `encrypt-authenticated-read`/`-write`; encryption, or a minimum key size, is
    /// `encrypt-read`/`-write` (BlueZ has no per-attribute key size: its own minimum applies). `secure-read`/
    /// `-write` (Secure Connections only) have no counterpart in ``/AirlinkCore/AttributePermissions``, and
    /// authorization is not mapped (the application would be asked; Airlink does not answer).
    static func securityFlags(_ permissions: AttributePermissions, read: Bool, write: Bool) -> [String] {
        let encrypted = permissions.minimumKeySize != nil
        var flags: [String] = []
        if read {
            if permissions.contains(.readAuthenticationRequired) {
                flags.append("encrypt-authenticated-read")
            } else if permissions.contains(.readEncryptionRequired) || encrypted {
                flags.append("encrypt-read")
            }
        }
        if write {
            if permissions.contains(.writeAuthenticationRequired) {
                flags.append("encrypt-authenticated-write")
            } else if permissions.contains(.writeEncryptionRequired) || encrypted {
                flags.append("encrypt-write")
            }
        }
        return flags
    }

    /// A characteristic's flags: its properties, then what its value's permissions require.
    static func flags(_ spec: CharacteristicSpec) -> [String] {
        let properties = spec.properties
        return flags(properties)
            + securityFlags(
                spec.permissions, read: properties.contains(.read),
                write: !properties.isDisjoint(with: [.write, .writeWithoutResponse]))
    }

    /// A descriptor's flags: readable (bluetoothd serves descriptors read-only here), with what reading needs.
    static func flags(_ descriptor: GATTServerDefinition.Descriptor) -> [String] {
        ["read"] + securityFlags(descriptor.permissions, read: true, write: false)
    }
}
