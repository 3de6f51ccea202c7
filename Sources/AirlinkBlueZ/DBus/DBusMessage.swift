import CDBus

/// A libdbus message (`DBusMessage *`), owned by this object: method calls Airlink builds, and the
/// replies and signals it receives.
///
/// Immutable once built: a message is appended to only before it is handed to the connection, which
/// is what makes sharing it between threads safe.
package final class DBusMessage: @unchecked Sendable {
    /// The libdbus message; this object holds one reference.
    package let pointer: OpaquePointer

    /// Wraps a message, taking over the reference the caller holds.
    package init(taking pointer: OpaquePointer) { self.pointer = pointer }

    /// Wraps a message, adding a reference of its own.
    package init(retaining pointer: OpaquePointer) {
        dbus_message_ref(pointer)
        self.pointer = pointer
    }

    deinit { dbus_message_unref(pointer) }

    /// Builds a method call.
    ///
    /// - Parameters:
    ///   - destination: the bus name to call (`org.bluez`).
    ///   - path: the object (`/org/bluez/hci0`).
    ///   - interface: the interface (`org.bluez.Adapter1`).
    ///   - member: the method (`StartDiscovery`).
    ///   - arguments: the arguments, in order.
    /// - Throws: ``DBusError/invalidArgument(_:)`` for an invalid name, path or value (libdbus would abort).
    package static func methodCall(
        destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = []
    ) throws(DBusError) -> DBusMessage {
        guard DBusNames.isValidBusName(destination) else {
            throw .invalidArgument("\"\(destination)\" is not a valid bus name")
        }
        guard DBusNames.isValidObjectPath(path) else {
            throw .invalidArgument("\"\(path)\" is not a valid D-Bus object path")
        }
        guard DBusNames.isValidInterfaceName(interface) else {
            throw .invalidArgument("\"\(interface)\" is not a valid D-Bus interface name")
        }
        guard DBusNames.isValidMemberName(member) else {
            throw .invalidArgument("\"\(member)\" is not a valid D-Bus member name")
        }
        guard let pointer = dbus_message_new_method_call(destination, path, interface, member) else {
            throw .malformed("out of memory building a call to \(interface).\(member)")
        }
        let message = DBusMessage(taking: pointer)
        try message.append(arguments)
        return message
    }

    /// The message type: ``DBusTypeCode/methodCallMessage``, `methodReturnMessage`, `errorMessage`, `signalMessage`.
    package var type: Int32 { dbus_message_get_type(pointer) }
    /// The object path, if any.
    package var path: String? { dbus_message_get_path(pointer).map { String(cString: $0) } }
    /// The interface, if any.
    package var interface: String? { dbus_message_get_interface(pointer).map { String(cString: $0) } }
    /// The member (method or signal name), if any.
    package var member: String? { dbus_message_get_member(pointer).map { String(cString: $0) } }
    /// The sender's unique name, if any.
    package var sender: String? { dbus_message_get_sender(pointer).map { String(cString: $0) } }
    /// The error name of an error reply.
    package var errorName: String? { dbus_message_get_error_name(pointer).map { String(cString: $0) } }
    /// The body's signature (`""` for no arguments).
    package var signature: String { dbus_message_get_signature(pointer).map { String(cString: $0) } ?? "" }
    /// `interface.member` (`org.bluez.GattCharacteristic1.ReadValue`), for messages about the call.
    package var qualifiedMember: String { "\(interface ?? "").\(member ?? "")" }
    /// The serial of the call this message replies to.
    package var replySerial: UInt32 { dbus_message_get_reply_serial(pointer) }

    /// The body's arguments, decoded.
    ///
    /// - Throws: ``DBusError/malformed(_:)`` for a type Airlink does not decode (Unix file descriptors).
    package func arguments() throws(DBusError) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(pointer, &iter) != 0 else { return [] }
        var values: [DBusValue] = []
        repeat {
            values.append(try DBusValueDecoder.read(&iter))
        } while dbus_message_iter_next(&iter) != 0
        return values
    }

    /// The body's arguments, after checking the body's signature.
    ///
    /// - Parameters:
    ///   - expected: the signature the body must have (`a{oa{sa{sv}}}`).
    ///   - context: what the message is, for the error (`reply to GetManagedObjects`).
    /// - Throws: ``DBusError/unexpectedSignature(expected:actual:context:)`` when it differs.
    package func arguments(expecting expected: String, context: @autoclosure () -> String) throws(DBusError)
        -> [DBusValue]
    {
        let actual = signature
        guard actual == expected else {
            throw .unexpectedSignature(expected: expected, actual: actual, context: context())
        }
        return try arguments()
    }

    /// The error of an error reply: its name and its text (the first argument, when a string).
    package var error: DBusError? {
        guard type == DBusTypeCode.errorMessage else { return nil }
        let name = errorName ?? "org.freedesktop.DBus.Error.Failed"
        var text = ""
        // try?: the error's name is what the mapping reads; a text that cannot be read is left empty
        if signature.hasPrefix("s"), case .string(let first)? = try? arguments().first { text = first }
        return .remote(name: name, message: text)
    }

    /// Appends arguments to the body.
    ///
    /// - Throws: ``DBusError/invalidArgument(_:)`` if a value cannot be sent; nothing is appended then.
    package func append(_ values: [DBusValue]) throws(DBusError) {
        for value in values { try DBusValueEncoder.validate(value) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(pointer, &iter)
        for value in values { try DBusValueEncoder.append(value, to: &iter) }
    }
}
