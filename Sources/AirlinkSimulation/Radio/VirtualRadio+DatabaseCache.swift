import AirlinkCore

extension VirtualRadio: StackDatabaseCache {
    /// `false`: the virtual central discovers over the air on every link, so its discoveries are never stale.
    public var answersDiscoveryFromOwnCache: Bool { false }

    /// Forgets what the central keeps of a peripheral between links, its Service Changed handle (the radio's
    /// equivalent of a stack's cache): the next link's setup finds it again. A `radio` trace line says so.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/deviceNotFound`` for a device the simulated world does not have.
    public func dropDatabaseCache(_ device: DeviceID) async throws(AirlinkError) {
        let known = world.lock.withLock { () -> Bool in
            guard world.peripherals.contains(where: { $0.id == device }) else { return false }
            serviceChangedHandles[device] = nil
            world.record("radio", "\(tracePrefix)\(device) database cache dropped")
            return true
        }
        guard known else {
            throw AirlinkError(
                .deviceNotFound, "the simulated world has no device \(device); add it to the simulation first",
                context: "drop the database cache of \(device)")
        }
    }
}

extension VirtualRadioSession: StackDatabaseCache {
    /// `false`, as the radio's.
    public var answersDiscoveryFromOwnCache: Bool { false }

    /// Drops the shared adapter's cache of the device (``VirtualRadio/dropDatabaseCache(_:)``).
    public func dropDatabaseCache(_ device: DeviceID) async throws(AirlinkError) {
        try await radio.dropDatabaseCache(device)
    }
}
