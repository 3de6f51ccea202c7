import AirlinkCore

/// How a ``BlueZPeripheral`` ends: closed or released by the app, its bus connection closed,
/// bluetoothd gone from the bus (`NameOwnerChanged` of org.bluez to no owner) or its adapter removed
/// (`InterfacesRemoved` of `org.bluez.Adapter1`). Ending finishes every event stream and closes the
/// connection, which fails the calls still waiting for BlueZ at once.
extension BlueZPeripheral {
    /// Watches for the peripheral's sources going away; set up before any call is sent, so that the bus
    /// has the rules before it handles a registration.
    func watchLifetime() {
        let adapterPath = self.adapterPath
        let logger = environment.logger
        let refused: @Sendable (DBusError) -> Void = { error in
            logger.warning("the bus refused a watch of BlueZ: \(error)")
        }
        connection.watch(
            DBusMatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                arg0: BlueZInterface.service), refused: refused
        ) { [weak self] signal in
            guard let arguments = signal.arguments(expecting: "sss", loggingTo: logger),
                arguments.count == 3, arguments[0].string == BlueZInterface.service,
                arguments[2].string?.isEmpty == true
            else { return }
            self?.end("bluetoothd (org.bluez) left the bus")
        }
        connection.watch(
            DBusMatchRule(
                sender: BlueZInterface.service, interface: BlueZInterface.objectManager, member: "InterfacesRemoved"),
            refused: refused
        ) { [weak self] signal in
            guard let arguments = signal.arguments(expecting: "oas", loggingTo: logger),
                arguments.count == 2, arguments[0].string == adapterPath,
                arguments[1].strings?.contains(BlueZInterface.adapter) == true
            else { return }
            self?.end("adapter \(adapterPath) was removed")
        }
        connection.onDisconnect { [weak self] reason in self?.end("the D-Bus connection closed (\(reason))") }
    }

    /// Ends the peripheral: the event streams finish, the bus connection closes (BlueZ drops the
    /// registrations) and calls waiting for BlueZ fail with ``/AirlinkCore/AirlinkError/Code/transportUnavailable``.
    /// Later calls fail the same way; use a new ``BlueZPeripheral``.
    public func close() { end("the peripheral was closed") }

    /// Ends the peripheral once, for `why`.
    func end(_ why: String) {
        let first = state.withLock { state in
            guard state.ended == nil else { return false }
            state.ended = why
            return true
        }
        guard first else { return }
        context.attach(nil)
        connection.close()
        broadcaster.finish()
    }

    /// Throws ``/AirlinkCore/AirlinkError/Code/transportUnavailable`` once the peripheral has ended.
    func checkNotEnded(_ what: String) throws(AirlinkError) {
        guard let why = state.withLock({ $0.ended }) else { return }
        throw AirlinkError(
            .transportUnavailable, "cannot \(what): the BlueZ peripheral \(name) ended (\(why)); create a new one",
            context: adapterPath)
    }
}
