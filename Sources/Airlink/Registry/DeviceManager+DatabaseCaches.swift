import AirlinkCore
import AirlinkRegistry

/// What ``DeviceManager/dropDatabaseCaches(of:timeout:)`` dropped.
public struct DroppedDatabaseCaches: Sendable, Hashable {
    /// The registry held a cached database or hash of the device, and it is gone.
    public var registry: Bool
    /// The transport's stack was asked to drop its own copy (``/AirlinkCore/StackDatabaseCache``) and did.
    public var stack: Bool
    /// The stack forgot the device with its copy (BlueZ's `RemoveDevice`): it must be heard in a scan again
    /// (``DeviceManager/discover(named:services:timeout:options:)``) before it can be connected.
    public var mustBeDiscoveredAgain: Bool

    /// Creates a report.
    public init(registry: Bool, stack: Bool, mustBeDiscoveredAgain: Bool) {
        self.registry = registry
        self.stack = stack
        self.mustBeDiscoveredAgain = mustBeDiscoveredAgain
    }
}

extension DeviceManager {
    /// The remedy for a stale database cache: drops the registry's cached database of the device and, when the
    /// transport's stack keeps a copy of its own (``/AirlinkCore/StackDatabaseCache``: BlueZ's cache, which
    /// ``/AirlinkCore/ServicesEvent/stackCacheStale(_:)`` reports stale), that copy too. The next connection discovers
    /// the database from the device.
    ///
    /// On BlueZ the stack's copy goes with the device itself (`Adapter1.RemoveDevice`, pairing included): scan
    /// until the device is heard again, then connect (``DroppedDatabaseCaches/mustBeDiscoveredAgain``). Disconnect
    /// first: a link up at the time is taken down, and the connection manager sees it lost.
    ///
    /// - Parameters:
    ///   - device: the device.
    ///   - timeout: how long the stack may take; positive.
    /// - Returns: what was dropped.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/timeout`` when the stack does not answer within `timeout` (the
    ///   registry's cache is dropped already); ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a timeout that
    ///   is not positive; what the stack throws (``/AirlinkCore/AirlinkError/Code/deviceNotFound`` when it does
    ///   not know the device, ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``); what the repository throws.
    public func dropDatabaseCaches(of device: DeviceID, timeout: Duration = .seconds(30)) async throws(AirlinkError)
        -> DroppedDatabaseCaches
    {
        guard timeout > .zero else {
            throw .invalid("the timeout", "is \(timeout.text); pass how long the stack may take, such as .seconds(10)")
        }
        let issued = environment.clock.now
        var registryDropped = false
        if let registry, try await registry.record(for: device) != nil {
            registryDropped = try await registry.forgetDatabase(of: device)
        }
        guard let stack = transport as? any StackDatabaseCache else {
            return DroppedDatabaseCaches(registry: registryDropped, stack: false, mustBeDiscoveredAgain: false)
        }
        do {
            try await OperationDeadline(environment: environment, issued: issued).run(
                "drop the \(transport.name) stack's cached database of \(device)", timeout: timeout
            ) { () async throws(AirlinkError) in
                try await stack.dropDatabaseCache(device)
            }
        } catch  where error.code == .timeout {
            throw AirlinkError(
                .timeout,
                "the \(transport.name) stack did not drop its cached database of \(device) within \(timeout.text) "
                    + "(the registry's cache is dropped); try again, or remove the device from the stack by hand "
                    + "(bluetoothctl remove \(device.address.map { "\($0)" } ?? "ADDRESS"))",
                cause: .underlying(error))
        }
        return DroppedDatabaseCaches(
            registry: registryDropped, stack: true, mustBeDiscoveredAgain: stack.answersDiscoveryFromOwnCache)
    }
}
