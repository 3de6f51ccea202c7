import AirlinkCore

extension BlueZPeripheral {
    /// Follows the adapter's `Device1` objects so that centrals connecting and leaving are reported:
    /// subscribes to org.bluez's signals first, then reads the objects, so that no change is missed.
    func watchCentrals() async throws(AirlinkError) {
        state.withLock { $0.watchingCentrals = true }
        let rules = BlueZInterface.objectRules(under: adapterPath)
        do {
            for rule in rules {
                _ = try await connection.subscribe(rule) { [weak self] signal in self?.handleCentralSignal(signal) }
            }
        } catch {
            throw BlueZErrorMapping.map(error, operation: .objects, context: "subscribing to BlueZ's device signals")
        }
        let snapshot = try await BlueZTransport.managedObjects(connection, timeout: operationTimeout)
        centrals.withLock { $0.load(snapshot) }
    }

    /// Applies one signal (on the D-Bus loop thread) and reports what it means.
    func handleCentralSignal(_ signal: DBusSignal) {
        let events: [PeripheralEvent]
        do {
            events = try centrals.withLock { (tracker: inout BlueZCentralTracker) throws(DBusError) in
                try tracker.apply(signal)
            }
        } catch {
            environment.logger.warning("ignoring a malformed BlueZ signal: \(error)")
            return
        }
        for event in events { report(event) }
    }
}
