import AirlinkCore
import AirlinkRegistry

extension DeviceManager {
    /// The connection manager of a remembered device, without discovering it first.
    ///
    /// Connecting needs no scan on either transport (the virtual radio connects to any peripheral
    /// of its world; BlueZ to any device it knows, cached or paired), so this is
    /// ``connection(to:reconnection:)`` for a device the registry holds. If the device is not
    /// around, ``ConnectionManager/connect(timeout:)`` fails with a typed error
    /// (``/AirlinkCore/AirlinkError/Code/timeout`` or ``/AirlinkCore/AirlinkError/Code/deviceNotFound``) and the record
    /// stays. Carries forward CoreBluetooth's `retrievePeripherals(withIdentifiers:)`.
    ///
    /// - Parameters:
    ///   - device: the remembered device.
    ///   - reconnection: the reconnection strategy.
    /// - Returns: the device's connection manager.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` without a registry;
    ///   ``/AirlinkCore/AirlinkError/Code/deviceNotFound`` when the registry does not know the device; what the
    ///   repository throws.
    public func connection(
        toKnown device: DeviceID, reconnection: some ReconnectionStrategy = NoReconnectionStrategy()
    ) async throws(AirlinkError) -> ConnectionManager {
        let registry = try requireRegistry("connect to a known device")
        guard try await registry.record(for: device) != nil else {
            throw AirlinkError(
                .deviceNotFound,
                "\(device) is not in the registry: no connection to it was recorded; discover it and connect once "
                    + "with connection(to:)")
        }
        return connection(to: device, reconnection: reconnection)
    }

    /// The connection managers of the remembered devices among `ids`, in the order of `ids`
    /// (unknown ids are left out), without discovering them.
    ///
    /// - Parameters:
    ///   - ids: the devices wanted.
    ///   - reconnection: the reconnection strategy of each.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` without a registry; what the repository throws.
    public func retrieveDevices(
        withIDs ids: [DeviceID], reconnection: some ReconnectionStrategy = NoReconnectionStrategy()
    ) async throws(AirlinkError) -> [ConnectionManager] {
        let registry = try requireRegistry("retrieve known devices")
        return try await registry.knownDevices(withIDs: ids).map { connection(to: $0.id, reconnection: reconnection) }
    }

    /// Forgets a remembered device everywhere: its bond on the transport (``/AirlinkCore/Transport/forgetBond(_:)``,
    /// so that neither the registry nor the stack keeps a bond the other lacks) and then its record. Records
    /// under way are saved first, so that none brings the device back.
    ///
    /// - Returns: whether the registry held the device (the transport's bond is forgotten either way).
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` without a registry; what the repository throws.
    @discardableResult
    public func forget(_ device: DeviceID) async throws(AirlinkError) -> Bool {
        let registry = try requireRegistry("forget a device")
        await transport.forgetBond(device)
        await recorder?.settle()
        return try await registry.forget(device)
    }

    /// Returns once every connection record asked for so far is saved (call before the process ends).
    public func waitForRecords() async {
        await recorder?.settle()
    }

    private func requireRegistry(_ operation: String) throws(AirlinkError) -> DeviceRegistry {
        guard let registry else {
            throw AirlinkError(
                .invalidArgument,
                "cannot \(operation): this DeviceManager has no registry; create it with "
                    + "DeviceManager(transport:environment:registry:)")
        }
        return registry
    }
}
