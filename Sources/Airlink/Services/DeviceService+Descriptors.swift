import AirlinkCore

extension DeviceService {
    /// Discovers every descriptor of a characteristic, in the device's turn, and caches them for
    /// ``readDescriptor(_:of:)`` and ``writeDescriptor(_:to:of:)``.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/characteristicNotFound``,
    ///   ``/AirlinkCore/AirlinkError/Code/notConnected``, and what the transport's descriptor discovery throws.
    public func discoverDescriptors(of characteristic: BluetoothUUID) async throws(AirlinkError)
        -> [GATTDescriptor]
    {
        try await client.perform(
            "discover descriptors of \(characteristic) in \(uuid)", service: uuid, characteristic: characteristic
        ) { turn throws(AirlinkError) in
            let (service, resolved) = try await client.resolveCharacteristic(
                characteristic, in: uuid, turn: turn)
            let found = try await client.transport.discoverDescriptors(client.device, of: resolved, in: service)
            client.state.withLock { state in
                if state.generation == turn.generation,
                    state.services[service.uuid]?.descriptors[resolved.valueHandle] != found
                {
                    state.services[service.uuid]?.descriptors[resolved.valueHandle] = found
                    state.unsaved = true
                }
            }
            return found
        }
    }
}
