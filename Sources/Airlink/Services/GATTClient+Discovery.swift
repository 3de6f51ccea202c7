import AirlinkCore

extension GATTClient {
    /// Discovers services (all, or those with the given UUIDs) and caches them.
    ///
    /// Call inside ``perform(_:service:characteristic:_:)``.
    func discoverServices(_ uuids: [BluetoothUUID]?, turn: Turn) async throws(AirlinkError) -> [GATTService] {
        let found = try await transport.discoverServices(device, uuids: uuids)
        state.withLock { state in
            guard state.generation == turn.generation else { return }
            for service in found where state.services[service.uuid] == nil {
                state.services[service.uuid] = ServiceCache(service: service)
            }
            if uuids == nil { state.allServices = found }
            state.unsaved = true
        }
        if uuids == nil { recorder?.servicesDiscovered(device, services: found.map(\.uuid)) }
        bus.publish(.services(device, .discovered(found.map(\.uuid))))
        return found
    }

    /// The service with `uuid`, from the cache or discovered.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/serviceNotFound`` naming the services the device has.
    func resolveService(_ uuid: BluetoothUUID, turn: Turn) async throws(AirlinkError) -> GATTService {
        let (cached, all) = state.withLock { ($0.services[uuid]?.service, $0.allServices) }
        if let cached { return cached }
        if all == nil { try requireDeadline(turn) }
        if all == nil,
            let service = try await transport.discoverServices(device, uuids: [uuid]).first(where: {
                $0.uuid == uuid
            })
        {
            state.withLock { state in
                if state.generation == turn.generation, state.services[uuid] == nil {
                    state.services[uuid] = ServiceCache(service: service)
                    state.unsaved = true
                }
            }
            return service
        }
        var known = all ?? []
        if all == nil { known = try await transport.discoverServices(device, uuids: nil) }
        throw AirlinkError(
            .serviceNotFound,
            "\(device) has no service \(uuid); it has \(Self.list(known.map(\.uuid))). Check the UUID, or "
                + "discover the services to see what the device offers")
    }

    /// The service and the characteristic with `uuid` in it, if both are cached: the common path of a
    /// request, taken without an asynchronous call (``resolveCharacteristic(_:in:turn:)`` discovers them).
    func cachedCharacteristic(
        _ uuid: BluetoothUUID, in serviceUUID: BluetoothUUID
    ) -> (GATTService, GATTCharacteristic)? {
        state.withLock { state in
            guard let cache = state.services[serviceUUID], let characteristic = cache.characteristics[uuid] else {
                return nil
            }
            return (cache.service, characteristic)
        }
    }

    /// The characteristic with `uuid` in service `serviceUUID`, from the cache or discovered; its
    /// value handle is routed to the service's observers from then on.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/serviceNotFound``,
    ///   ``/AirlinkCore/AirlinkError/Code/characteristicNotFound`` naming the characteristics the service has.
    func resolveCharacteristic(
        _ uuid: BluetoothUUID, in serviceUUID: BluetoothUUID, turn: Turn
    ) async throws(AirlinkError) -> (GATTService, GATTCharacteristic) {
        let service = try await resolveService(serviceUUID, turn: turn)
        let (cached, all) = state.withLock {
            ($0.services[serviceUUID]?.characteristics[uuid], $0.services[serviceUUID]?.allCharacteristics)
        }
        if let cached { return (service, cached) }
        let found: [GATTCharacteristic]
        if let all {
            found = all
        } else {
            // Finding one characteristic by UUID costs the requests of finding them all (Read By Type over the
            // service's range, filtered by the client), so all are discovered and cached: the service's next
            // characteristic needs no request, on this link or (with a registry) the next.
            try requireDeadline(turn)
            found = try await transport.discoverCharacteristics(device, of: service, uuids: nil)
            cache(found, of: serviceUUID, turn: turn, complete: true)
        }
        guard let characteristic = found.first(where: { $0.uuid == uuid }) else {
            throw AirlinkError(
                .characteristicNotFound,
                "service \(serviceUUID) of \(device) has no characteristic \(uuid); it has "
                    + "\(Self.list(found.map(\.uuid))). Check the UUID and the service it belongs to")
        }
        return (service, characteristic)
    }

    /// Discovers a service's characteristics (all, or those with the given UUIDs) and caches them.
    func discoverCharacteristics(
        _ uuids: [BluetoothUUID]?, of serviceUUID: BluetoothUUID, turn: Turn
    ) async throws(AirlinkError) -> [GATTCharacteristic] {
        let service = try await resolveService(serviceUUID, turn: turn)
        let found = try await transport.discoverCharacteristics(device, of: service, uuids: uuids)
        cache(found, of: serviceUUID, turn: turn, complete: uuids == nil)
        return found
    }

    /// The descriptor `uuid` of a characteristic, from the cache or discovered.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/descriptorNotFound`` naming the descriptors it has.
    func resolveDescriptor(
        _ uuid: BluetoothUUID, of characteristic: GATTCharacteristic, in service: GATTService, turn: Turn
    ) async throws(AirlinkError) -> GATTDescriptor {
        var descriptors = state.withLock { $0.services[service.uuid]?.descriptors[characteristic.valueHandle] }
        if descriptors == nil {
            try requireDeadline(turn)
            let found = try await transport.discoverDescriptors(device, of: characteristic, in: service)
            state.withLock { state in
                if state.generation == turn.generation {
                    state.services[service.uuid]?.descriptors[characteristic.valueHandle] = found
                    state.unsaved = true
                }
            }
            descriptors = found
        }
        guard let descriptor = descriptors?.first(where: { $0.uuid == uuid }) else {
            throw AirlinkError(
                .descriptorNotFound,
                "characteristic \(characteristic.uuid) in service \(service.uuid) of \(device) has no descriptor "
                    + "\(uuid); it has \(Self.list((descriptors ?? []).map(\.uuid)))")
        }
        return descriptor
    }

    /// The services discovered on the current link, in handle order (empty before discovery).
    var discoveredServices: [GATTService] {
        state.withLock { state in
            state.allServices
                ?? state.services.values.map(\.service).sorted { $0.handles.lowerBound < $1.handles.lowerBound }
        }
    }

    private func cache(
        _ characteristics: [GATTCharacteristic], of serviceUUID: BluetoothUUID, turn: Turn, complete: Bool
    ) {
        let registry = registry(for: serviceUUID)
        state.withLock { state in
            guard state.generation == turn.generation, state.services[serviceUUID] != nil else { return }
            for characteristic in characteristics
            where state.services[serviceUUID]!.characteristics[characteristic.uuid] == nil {
                state.services[serviceUUID]!.characteristics[characteristic.uuid] = characteristic
                state.routes[characteristic.valueHandle] = Route(
                    service: serviceUUID, characteristic: characteristic.uuid, registry: registry)
                state.unsaved = true
            }
            if complete, state.services[serviceUUID]!.allCharacteristics == nil {
                state.services[serviceUUID]!.allCharacteristics = characteristics
                state.unsaved = true
            }
        }
    }

    static func list(_ uuids: [BluetoothUUID]) -> String {
        uuids.isEmpty ? "none" : uuids.map(\.description).joined(separator: ", ")
    }
}
