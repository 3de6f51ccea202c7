import Testing

@testable import AirlinkBlueZ

/// D-Bus values through libdbus's DBusMessageIter, in a message that never leaves the process.
struct DBusValueTests {
    private func roundTrip(_ values: [DBusValue]) throws -> (String, [DBusValue]) {
        let message = try DBusMessage.methodCall(
            destination: "org.bluez", path: "/org/bluez/hci0", interface: "org.bluez.Adapter1", member: "Test",
            arguments: values)
        return (message.signature, try message.arguments())
    }

    @Test func basicAndContainerValuesSurviveEncoding() throws {
        // Given values of every kind BlueZ uses, a{oa{sa{sv}}} among them
        let tree = DBusValue.dictionary(
            keySignature: "o", valueSignature: "a{sa{sv}}",
            [
                DBusDictionaryEntry(
                    key: .objectPath("/org/bluez/hci0/dev_C0_FF_EE_00_00_01"),
                    value: .dictionary(
                        keySignature: "s", valueSignature: "a{sv}",
                        [
                            DBusDictionaryEntry(
                                key: .string("org.bluez.Device1"),
                                value: .properties([
                                    ("RSSI", .int16(-52)), ("Connected", .boolean(true)),
                                    (
                                        "ManufacturerData",
                                        .dictionary(
                                            keySignature: "q", valueSignature: "v",
                                            [
                                                DBusDictionaryEntry(
                                                    key: .uint16(0xFFFF), value: .variant(.bytes([0xA1, 0xB2])))
                                            ])
                                    ),
                                ]))
                        ]))
            ])
        let values: [DBusValue] = [
            .byte(7), .boolean(false), .int16(-2), .uint16(65535), .int32(-70000), .uint32(4_000_000_000),
            .int64(-1), .uint64(.max), .double(1.5), .string("hé"), .objectPath("/"), .signature("a{sv}"),
            .bytes([]), .bytes([0, 255]), .strings(["a", "b"]), .array(elementSignature: "ay", []),
            .structure([.string("x"), .variant(.int32(3))]), tree,
        ]

        // When they are appended to a message and read back
        let (signature, decoded) = try roundTrip(values)

        // Then the signature is theirs and every value comes back equal
        #expect(signature == values.map(\.signature).joined())
        #expect(decoded == values)
    }

    @Test(arguments: [
        DBusValue.objectPath("no/slash"), .objectPath("/trailing/"), .objectPath("/a//b"), .objectPath("/bad-char"),
        .string("nul\u{0}inside"), .array(elementSignature: "s", [.int32(1)]), .signature("a{"),
        .array(elementSignature: "zz", []), .dictionary(keySignature: "v", valueSignature: "s", []),
        .structure([]),
    ])
    func invalidValuesAreRefusedBeforeLibdbusSeesThem(value: DBusValue) {
        // Given a value libdbus would abort on, when it is appended, then a typed error comes back
        let error = #expect(throws: DBusError.self) { _ = try roundTrip([value]) }
        guard case .invalidArgument? = error else {
            Issue.record("expected invalidArgument, got \(String(describing: error))")
            return
        }
    }

    @Test func invalidNamesAreRefused() {
        // Given names that break the D-Bus rules, when a call is built, then it is refused
        for (destination, path, interface, member) in [
            ("", "/", "a.b", "M"), ("org.bluez", "x", "a.b", "M"), ("org.bluez", "/", "nodots", "M"),
            ("org.bluez", "/", "a.b", "1M"), ("org.bluez", "/", "a.b", "has.dot"),
        ] {
            #expect(throws: DBusError.self) {
                _ = try DBusMessage.methodCall(
                    destination: destination, path: path, interface: interface, member: member)
            }
        }
    }

    @Test func unexpectedSignatureIsATypedError() throws {
        // Given a message whose body is a string
        let message = try DBusMessage.methodCall(
            destination: "org.bluez", path: "/", interface: "a.b", member: "M", arguments: [.string("x")])

        // When it is read as a{oa{sa{sv}}}
        let error = #expect(throws: DBusError.self) {
            _ = try message.arguments(expecting: "a{oa{sa{sv}}}", context: "reply to GetManagedObjects")
        }

        // Then the error names both signatures and the context
        #expect(
            error == .unexpectedSignature(expected: "a{oa{sa{sv}}}", actual: "s", context: "reply to GetManagedObjects")
        )
    }

    @Test func objectTreeRejectsAWrongReply() throws {
        // Given a reply of the wrong type, when a tree is built from it, then it is a typed error
        let message = try DBusMessage.methodCall(
            destination: "org.bluez", path: "/", interface: "a.b", member: "M", arguments: [.strings(["x"])])
        #expect(throws: DBusError.self) { _ = try BlueZObjectTree(managedObjects: message) }
    }

    @Test func matchRulesFilterByPathNamespaceAndMember() {
        // Given a rule for PropertiesChanged under /org/bluez
        let rule = DBusMatchRule(
            sender: "org.bluez", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            pathNamespace: "/org/bluez")

        // Then it prints as AddMatch wants it and matches only that namespace and member
        #expect(
            rule.description
                == "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',"
                + "member='PropertiesChanged',path_namespace='/org/bluez'")
        let properties = "org.freedesktop.DBus.Properties"
        #expect(rule.matches(path: "/org/bluez/hci0", interface: properties, member: "PropertiesChanged"))
        #expect(rule.matches(path: "/org/bluez", interface: properties, member: "PropertiesChanged"))
        #expect(!rule.matches(path: "/org/bluezz", interface: properties, member: "PropertiesChanged"))
        #expect(!rule.matches(path: "/org/bluez/hci0", interface: properties, member: "Other"))
    }
}
