import CDBus

/// How an exported object answers a method call: with values, or with a D-Bus error.
package enum DBusMethodReply: Sendable {
    /// A method return with these arguments.
    case values([DBusValue])
    /// An error reply (`org.bluez.Error.NotPermitted`, text).
    case error(name: String, message: String)

    /// The `InvalidArgs` answer to a call whose arguments cannot be read, saying why.
    package static func unreadableArguments(_ error: DBusError) -> DBusMethodReply {
        .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "unreadable arguments: \(error)")
    }
}

extension DBusMessage {
    /// The call's arguments, or why they cannot be read (an exported object answers that with
    /// ``DBusMethodReply/unreadableArguments(_:)``).
    package var callArguments: Result<[DBusValue], DBusError> {
        Result { () throws(DBusError) in try arguments() }
    }
}

/// The handler of method calls to a subtree of objects a connection exports. It runs on the
/// connection's loop thread and must not block.
package typealias DBusMethodHandler = @Sendable (DBusMessage) -> DBusMethodReply

extension DBusConnection {
    /// Exports the objects at `path` and below: every method call to them goes to `handler`, whose
    /// reply is sent back. Calls the handler does not know get the error it returns.
    ///
    /// - Returns: a registration; drop it with ``unexport(_:)``.
    /// - Throws: ``DBusError/invalidArgument(_:)`` for an invalid path or one already exported.
    package func export(_ path: String, handler: @escaping DBusMethodHandler) throws(DBusError) {
        guard DBusNames.isValidObjectPath(path) else {
            throw .invalidArgument("\"\(path)\" is not a valid D-Bus object path")
        }
        let box = Unmanaged.passRetained(DBusExportBox(handler: handler, loop: loop)).toOpaque()
        var vtable = DBusObjectPathVTable(
            unregister_function: dbusExportUnregister, message_function: dbusExportMessage,
            dbus_internal_pad1: nil, dbus_internal_pad2: nil, dbus_internal_pad3: nil, dbus_internal_pad4: nil)
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard dbus_connection_try_register_fallback(loop.connection, path, &vtable, box, &error) != 0 else {
            Unmanaged<DBusExportBox>.fromOpaque(box).release()
            throw .invalidArgument(
                "cannot export \(path): " + (error.message.map { String(cString: $0) } ?? "already exported"))
        }
    }

    /// Stops exporting the objects at `path`.
    package func unexport(_ path: String) {
        _ = dbus_connection_unregister_object_path(loop.connection, path)
    }

    /// Emits a signal from an exported object.
    ///
    /// - Throws: ``DBusError/invalidArgument(_:)`` for invalid names or values; ``DBusError/disconnected(_:)``.
    package func emitSignal(
        path: String, interface: String, member: String, arguments: [DBusValue]
    ) throws(DBusError) {
        guard DBusNames.isValidObjectPath(path), DBusNames.isValidInterfaceName(interface),
            DBusNames.isValidMemberName(member)
        else { throw .invalidArgument("invalid signal \(path) \(interface).\(member)") }
        guard let pointer = dbus_message_new_signal(path, interface, member) else {
            throw .malformed("out of memory building signal \(member)")
        }
        let message = DBusMessage(taking: pointer)
        try message.append(arguments)
        guard loop.sendWithoutReply(message) else { throw .disconnected("the bus connection is closed") }
    }
}

extension DBusEventLoop {
    /// Sends a message that expects no reply (a method return, an error, a signal).
    func sendWithoutReply(_ message: DBusMessage) -> Bool {
        guard dbus_connection_send(connection, message.pointer, nil) != 0 else { return false }
        noteSent()
        if !isLoopThread { wake() }
        return true
    }
}

/// What the registered vtable needs: the handler and the loop to reply through.
private final class DBusExportBox {
    let handler: DBusMethodHandler
    unowned let loop: DBusEventLoop

    init(handler: @escaping DBusMethodHandler, loop: DBusEventLoop) {
        self.handler = handler
        self.loop = loop
    }
}

private func dbusExportUnregister(_ connection: OpaquePointer?, _ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<DBusExportBox>.fromOpaque(context).release()
}

private func dbusExportMessage(
    _ connection: OpaquePointer?, _ pointer: OpaquePointer?, _ context: UnsafeMutableRawPointer?
) -> DBusHandlerResult {
    guard let pointer, let context, dbus_message_get_type(pointer) == DBusTypeCode.methodCallMessage else {
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
    let box = Unmanaged<DBusExportBox>.fromOpaque(context).takeUnretainedValue()
    let message = DBusMessage(retaining: pointer)
    let reply: OpaquePointer?
    switch box.handler(message) {
    case .values(let values):
        reply = dbus_message_new_method_return(pointer)
        if let reply {
            let wrapped = DBusMessage(retaining: reply)
            do throws(DBusError) {
                try wrapped.append(values)
            } catch {
                dbus_message_unref(reply)
                let failure = dbus_message_new_error(
                    pointer, "org.freedesktop.DBus.Error.Failed", "reply could not be encoded: \(error)")
                if let failure { _ = box.loop.sendWithoutReply(DBusMessage(taking: failure)) }
                return DBUS_HANDLER_RESULT_HANDLED
            }
        }
    case .error(let name, let text):
        reply = dbus_message_new_error(pointer, name, text)
    }
    if dbus_message_get_no_reply(pointer) == 0, let reply {
        _ = box.loop.sendWithoutReply(DBusMessage(taking: reply))
    } else if let reply {
        dbus_message_unref(reply)
    }
    return DBUS_HANDLER_RESULT_HANDLED
}
