import AirlinkCore

extension GATTClient {
    /// Turns a Database Out Of Sync answer (ATT 0x12, Core Spec Vol 3, Part G, 2.5.2.1) into a
    /// ``/AirlinkCore/AirlinkError/Code/databaseOutOfSync`` error, after dropping every cached handle as Service
    /// Changed does (``servicesChanged()``: the app hears `.changed`, its notifications are restored on the
    /// rediscovered handles). Any other error is returned as it is.
    ///
    /// The device sends 0x12 to a client that enabled robust caching and has not caught up with a change of its
    /// database; the request was not carried out, and the device answers the next one. So the operation may be
    /// retried at once: its first use rediscovers the handles. On a transport whose stack keeps its own copy
    /// of the database (``/AirlinkCore/StackDatabaseCache``, BlueZ) the answer also says that copy is behind:
    /// ``/AirlinkCore/ServicesEvent/stackCacheStale(_:)`` with `outOfSync` follows.
    func outOfSync(_ error: AirlinkError) -> AirlinkError {
        guard error.attError == .databaseOutOfSync else { return error }
        servicesChanged(.outOfSync)
        if let stack = transport as? any StackDatabaseCache, stack.answersDiscoveryFromOwnCache {
            // The stack made the request on handles it keeps itself: its copy is behind the device.
            bus.publish(.services(device, .stackCacheStale(.outOfSync)))
        }
        return AirlinkError(
            .databaseOutOfSync,
            "\(device) answered Database Out Of Sync: its database changed since Airlink discovered it, and the "
                + "request was not carried out; the cached handles are dropped, so retry the operation and it "
                + "rediscovers them",
            cause: error.cause)
    }
}
