import CDBus
import Glibc

/// A private connection to a D-Bus bus, served by its own event-loop thread.
///
/// Method calls return through Swift concurrency without blocking the caller's thread; signal
/// handlers run on the loop thread in the order the bus delivered the messages, before the reply
/// to any call that followed them. When the bus goes away every pending call fails promptly with
/// ``DBusError/disconnected(_:)``.
package final class DBusConnection: Sendable {
    /// Which bus to connect to.
    package enum Bus: Sendable, Hashable, CustomStringConvertible {
        /// The system bus: `DBUS_SYSTEM_BUS_ADDRESS` if set, else `/run/dbus/system_bus_socket`.
        case system
        /// A bus at an explicit address (`unix:path=/tmp/x/bus`).
        case address(String)

        /// `system bus` or the address.
        package var description: String {
            switch self {
            case .system: "system bus"
            case .address(let address): address
            }
        }
    }

    let loop: DBusEventLoop
    /// This connection's unique name on the bus (`:1.42`).
    package let uniqueName: String
    /// The bus connected to.
    package let bus: Bus

    /// How long opening a connection waits for the bus: authentication and the answer to `Hello`.
    package static let openTimeout = Duration.seconds(5)

    /// Opens a private connection and registers it with the bus (blocks until the bus answers `Hello`, at most
    /// `timeout`).
    ///
    /// - Parameters:
    ///   - bus: the bus.
    ///   - timeout: how long authentication and `Hello` may take: a bus socket that accepts and never
    ///     answers ends here.
    /// - Throws: ``DBusError/connectionFailed(address:name:message:)`` when the bus cannot be reached;
    ///   ``DBusError/timeout(member:after:)`` when it does not answer within `timeout`.
    package init(bus: Bus, timeout: Duration = openTimeout) throws(DBusError) {
        dbus_threads_init_default()
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let address: String
        let shownAddress: String
        switch bus {
        case .system:
            address = Self.systemBusAddress
            shownAddress = "the system bus (\(address))"
        case .address(let given):
            address = given
            shownAddress = given
        }
        func failure() -> DBusError {
            .connectionFailed(
                address: shownAddress, name: error.name.map { String(cString: $0) } ?? "unknown",
                message: error.message.map { String(cString: $0) } ?? "")
        }
        let hello = try DBusMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "Hello")
        guard let pointer = dbus_connection_open_private(address, &error) else { throw failure() }
        func abandon() {
            dbus_connection_close(pointer)
            dbus_connection_unref(pointer)
        }
        // Authentication first, by hand: libdbus's blocking calls wait for it without a timeout.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while dbus_connection_get_is_authenticated(pointer) == 0 {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else {
                abandon()
                throw .timeout(member: "authentication with \(shownAddress)", after: timeout)
            }
            let slice = Int32(min(100, max(1, (left / .milliseconds(1)).rounded(.up))))
            guard dbus_connection_read_write(pointer, slice) != 0 else {
                abandon()
                throw .connectionFailed(
                    address: shownAddress, name: "org.freedesktop.DBus.Error.Disconnected",
                    message: "the bus closed the connection while authenticating")
            }
        }
        let left = clock.now.duration(to: deadline)
        // Registers by hand (dbus_bus_register waits 25 s per try, without end for some peers): `Hello` with
        // the deadline, then the unique name it answers is given to libdbus.
        let milliseconds = Int32(clamping: Int64(max(1, (left / .milliseconds(1)).rounded(.up))))
        let reply = dbus_connection_send_with_reply_and_block(pointer, hello.pointer, milliseconds, &error)
        guard let reply else {
            abandon()
            if let name = error.name, String(cString: name) == "org.freedesktop.DBus.Error.NoReply" {
                throw .timeout(member: "Hello to \(shownAddress)", after: timeout)
            }
            throw failure()
        }
        let answer = DBusMessage(taking: reply)
        // try?: an unreadable reply and one without a name fail alike below, as connectionFailed saying so
        guard let name = try? answer.arguments(expecting: "s", context: "reply to Hello").first?.string,
            dbus_bus_set_unique_name(pointer, name) != 0
        else {
            abandon()
            throw .connectionFailed(
                address: shownAddress, name: "org.freedesktop.DBus.Error.InvalidArgs",
                message: "the bus did not answer Hello with a unique name")
        }
        uniqueName = name
        self.bus = bus
        loop = try DBusEventLoop(connection: pointer)
    }

    deinit { loop.submit(.close) }

    /// The system bus address libdbus will use: `DBUS_SYSTEM_BUS_ADDRESS`, or the default socket.
    package static var systemBusAddress: String {
        if let value = getenv("DBUS_SYSTEM_BUS_ADDRESS") { return String(cString: value) }
        return "unix:path=/run/dbus/system_bus_socket"
    }

    /// The connection's loop thread as a task executor (see ``BlueZTransport/taskExecutor``).
    package var taskExecutor: any TaskExecutor { loop }

    /// Why the connection ended, or `nil` while it is open.
    package var closedReason: String? { loop.closedReason }

    /// Sends a method call from the caller's thread; `completion` runs once, on the loop thread (or
    /// at once on the caller's thread if the call cannot be sent), with the reply, the error reply
    /// or the failure.
    ///
    /// - Returns: the call's identifier, for ``cancel(_:)``.
    @discardableResult
    package func send(
        _ message: DBusMessage, timeout: Duration?,
        completion: @escaping @Sendable (Result<DBusMessage, DBusError>) -> Void
    ) -> UInt64 {
        let id = loop.makeID()
        send(message, id: id, timeout: timeout, completion: completion)
        return id
    }

    private func send(
        _ message: DBusMessage, id: UInt64, timeout: Duration?,
        completion: @escaping @Sendable (Result<DBusMessage, DBusError>) -> Void
    ) {
        loop.send(
            id: id, message: message, deadline: timeout.map { ContinuousClock.now.advanced(by: $0) },
            completion: completion)
    }

    /// Cancels a call: its completion runs with ``DBusError/cancelled`` unless the reply came first.
    package func cancel(_ id: UInt64) { loop.submit(.cancel(id: id)) }

    /// Calls a method and awaits its reply.
    ///
    /// - Parameters:
    ///   - message: the method call.
    ///   - timeout: how long to wait for the reply.
    /// - Returns: the reply (a method return; error replies are thrown).
    /// - Throws: ``DBusError/remote(name:message:)`` for an error reply, ``DBusError/timeout(member:after:)``,
    ///   ``DBusError/disconnected(_:)``, ``DBusError/cancelled`` when the task is cancelled.
    package func call(_ message: DBusMessage, timeout: Duration) async throws(DBusError) -> DBusMessage {
        if Task.isCancelled { throw .cancelled }
        let id = loop.makeID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<DBusMessage, DBusError>, Never>) in
                send(message, id: id, timeout: timeout) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            loop.submit(.cancel(id: id))
        }
        return try result.get()
    }

    /// Calls a method by its parts and awaits the reply.
    package func call(
        destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = [],
        timeout: Duration
    ) async throws(DBusError) -> DBusMessage {
        let message = try DBusMessage.methodCall(
            destination: destination, path: path, interface: interface, member: member, arguments: arguments)
        return try await call(message, timeout: timeout)
    }

    /// Subscribes to signals: asks the bus for them (`AddMatch`) and calls `handler` on the loop
    /// thread for each one that matches, in arrival order.
    ///
    /// - Returns: the subscription's identifier, for ``unsubscribe(_:)``.
    /// - Throws: the bus's refusal of the rule, or a connection failure.
    package func subscribe(
        _ rule: DBusMatchRule, timeout: Duration = .seconds(5), handler: @escaping @Sendable (DBusSignal) -> Void
    ) async throws(DBusError) -> UInt64 {
        let id = loop.makeID()
        loop.submit(.subscribe(id: id, rule, handler))
        do {
            _ = try await call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "AddMatch", arguments: [.string(rule.description)], timeout: timeout)
        } catch {
            loop.submit(.unsubscribe(id: id))
            throw error
        }
        return id
    }

    /// Subscribes to signals without waiting for the bus: the handler is registered and `AddMatch` sent
    /// at once, so every call this connection sends afterwards reaches the bus after the rule (the bus
    /// handles one connection's messages in order). For watches set up where nothing can wait (an
    /// initializer); `refused` runs (on the loop thread) if the bus rejects the rule.
    ///
    /// - Returns: the subscription's identifier, for ``unsubscribe(_:)``.
    @discardableResult
    package func watch(
        _ rule: DBusMatchRule, refused: @escaping @Sendable (DBusError) -> Void = { _ in },
        handler: @escaping @Sendable (DBusSignal) -> Void
    ) -> UInt64 {
        let id = loop.makeID()
        loop.submit(.subscribe(id: id, rule, handler))
        do {
            let message = try DBusMessage.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "AddMatch", arguments: [.string(rule.description)])
            send(message, timeout: .seconds(5)) { result in
                if case .failure(let error) = result { refused(error) }
            }
        } catch {
            refused(error)
        }
        return id
    }

    /// Ends a subscription (the bus-side rule stays until the connection closes).
    package func unsubscribe(_ id: UInt64) { loop.submit(.unsubscribe(id: id)) }

    /// A stream of the signals matching `rule`, for tests and simple consumers.
    package func signals(_ rule: DBusMatchRule) async throws(DBusError) -> AsyncStream<DBusSignal> {
        // An AsyncStream, not an EventStream: its onTermination unsubscribes when the consumer leaves.
        let (stream, continuation) = AsyncStream<DBusSignal>.makeStream()
        let id = try await subscribe(rule) { continuation.yield($0) }
        continuation.onTermination = { [loop] _ in loop.submit(.unsubscribe(id: id)) }
        onDisconnect { _ in continuation.finish() }
        return stream
    }

    /// Runs `work` on the loop thread after `delay` (at once on the caller's thread if the connection
    /// has ended).
    ///
    /// - Returns: the timer's identifier, for ``cancelTimer(_:)``.
    @discardableResult
    package func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> UInt64 {
        let id = loop.makeID()
        loop.submit(.timer(id: id, deadline: ContinuousClock.now.advanced(by: delay), work))
        return id
    }

    /// Runs `work` on the loop thread as soon as possible, after what is already queued (at once on
    /// the caller's thread if the connection has ended).
    package func perform(_ work: @escaping @Sendable () -> Void) { schedule(after: .zero, work) }

    /// Cancels a timer that has not fired.
    package func cancelTimer(_ id: UInt64) { loop.submit(.cancelTimer(id: id)) }

    /// Calls `handler` once when the connection ends (at once if it has), with the reason.
    package func onDisconnect(_ handler: @escaping @Sendable (String) -> Void) { loop.submit(.onDisconnect(handler)) }

    /// Closes the connection: pending calls fail with ``DBusError/disconnected(_:)``.
    package func close() { loop.submit(.close) }

    /// Whether a name has an owner on the bus (`NameHasOwner`).
    package func nameHasOwner(_ name: String, timeout: Duration = .seconds(5)) async throws(DBusError) -> Bool {
        let reply = try await call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameHasOwner", arguments: [.string(name)], timeout: timeout)
        guard case .boolean(let owned)? = try reply.arguments(expecting: "b", context: "reply to NameHasOwner").first
        else { throw .malformed("reply to NameHasOwner") }
        return owned
    }
}
