import CDBus

/// Dispatching: what the loop thread does with the replies and signals libdbus hands it.
extension DBusEventLoop {
    /// Runs what dispatching collected, in order, outside the dispatch lock.
    func deliverCollected() {
        guard !collected.isEmpty else { return }
        var index = 0
        while index < collected.count {
            switch collected[index] {
            case .reply(let completion, let result): completion(result)
            case .signal(let handler, let signal): handler(signal)
            }
            index += 1
        }
        collected.removeAll(keepingCapacity: true)
    }

    /// Queues a delivery while dispatching on the loop thread; runs it at once on any other thread.
    private func collect(_ delivery: Delivery) {
        guard isLoopThread else {
            switch delivery {
            case .reply(let completion, let result): completion(result)
            case .signal(let handler, let signal): handler(signal)
            }
            return
        }
        collected.append(delivery)
    }

    func complete(id: UInt64, call: OpaquePointer) {
        guard let entry = calls.withLock({ $0.pending.removeValue(forKey: id) }) else { return }
        let reply = dbus_pending_call_steal_reply(call)
        dbus_pending_call_unref(call)
        guard let reply else {
            collect(.reply(entry.completion, .failure(.disconnected("no reply to \(entry.member)"))))
            return
        }
        let message = DBusMessage(taking: reply)
        if let error = message.error {
            if case .remote(let name, let text) = error, name == "org.freedesktop.DBus.Error.NoReply" {
                collect(.reply(entry.completion, .failure(.disconnected("no reply to \(entry.member): \(text)"))))
            } else {
                collect(.reply(entry.completion, .failure(error)))
            }
        } else {
            collect(.reply(entry.completion, .success(message)))
        }
    }

    func handle(message pointer: OpaquePointer) {
        guard dbus_message_get_type(pointer) == DBusTypeCode.signalMessage else { return }
        let message = DBusMessage(retaining: pointer)
        guard let interface = message.interface, let member = message.member, let path = message.path else { return }
        if interface == "org.freedesktop.DBus.Local" && member == "Disconnected" {
            // Shut down after dispatching returns: libdbus is inside dbus_connection_dispatch now.
            lostReason = "the bus closed the connection"
            return
        }
        let signal = DBusSignal(
            path: path, interface: interface, member: member, sender: message.sender, message: message)
        var firstArgument: String??
        for subscription in subscriptions
        where subscription.rule.matches(path: path, interface: interface, member: member) {
            if let expected = subscription.rule.arg0 {
                if firstArgument == nil {
                    // try?: unreadable arguments have no first string, so an arg0 rule does not match, as the
                    // bus daemon's own matching would not
                    if case .string(let text)? = try? message.arguments().first {
                        firstArgument = .some(text)
                    } else {
                        firstArgument = .some(nil)
                    }
                }
                guard firstArgument == .some(expected) else { continue }
            }
            collect(.signal(subscription.handler, signal))
        }
    }
}

/// What a pending call's notify function needs: the loop and the call's identifier.
final class PendingContext {
    unowned let loop: DBusEventLoop
    let id: UInt64

    init(loop: DBusEventLoop, id: UInt64) {
        self.loop = loop
        self.id = id
    }
}

func dbusEventLoopPendingNotify(_ call: OpaquePointer?, _ context: UnsafeMutableRawPointer?) {
    guard let call, let context else { return }
    let box = Unmanaged<PendingContext>.fromOpaque(context).takeUnretainedValue()
    box.loop.complete(id: box.id, call: call)
}

func dbusEventLoopReleaseContext(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<PendingContext>.fromOpaque(context).release()
}

func dbusEventLoopFilter(
    _ connection: OpaquePointer?, _ message: OpaquePointer?, _ context: UnsafeMutableRawPointer?
) -> DBusHandlerResult {
    guard let message, let context else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    Unmanaged<DBusEventLoop>.fromOpaque(context).takeUnretainedValue().handle(message: message)
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}
