extension Advertisement {
    /// The services the advertisement names, in the service UUID lists or with service data, each once
    /// and in that order: a UUID advertised and carrying data is one service, not two.
    public var advertisedServices: [BluetoothUUID] {
        var services: [BluetoothUUID] = []
        for uuid in serviceUUIDs + serviceData.map(\.uuid) where !services.contains(uuid) { services.append(uuid) }
        return services
    }

    /// This advertising PDU's data completed with a scan response's, as a scanner shows a device: the
    /// complete name preferred over a shortened one (``LocalName/keeping(_:)``), the service lists joined,
    /// service data and manufacturer data of services and companies this PDU lacks added, TX power and
    /// appearance taken from the response when this PDU has none. Flags, connectability and RSSI stay
    /// this PDU's.
    ///
    /// - Parameter response: the scan response that followed, or `nil`.
    public func merged(withScanResponse response: Advertisement?) -> Advertisement {
        guard let response else { return self }
        var merged = self
        merged.isScanResponse = false
        if let name = response.localName { merged.localName = localName.map { $0.keeping(name) } ?? name }
        for uuid in response.serviceUUIDs where !merged.serviceUUIDs.contains(uuid) { merged.serviceUUIDs.append(uuid) }
        merged.hasMoreServiceUUIDs = hasMoreServiceUUIDs || response.hasMoreServiceUUIDs
        for entry in response.serviceData where !merged.serviceData.contains(where: { $0.uuid == entry.uuid }) {
            merged.serviceData.append(entry)
        }
        for entry in response.manufacturerData
        where !merged.manufacturerData.contains(where: { $0.companyID == entry.companyID }) {
            merged.manufacturerData.append(entry)
        }
        merged.txPowerLevel = txPowerLevel ?? response.txPowerLevel
        merged.appearance = appearance ?? response.appearance
        merged.otherStructures += response.otherStructures.filter { !otherStructures.contains($0) }
        return merged
    }
}

extension Advertisement.LocalName {
    /// The name to show once `newer` is heard after this one: `newer`, unless this one is complete and
    /// `newer` only shortens it (`Thermost` after `Thermostat`: a device puts its shortened name in its
    /// advertising PDU and its complete name in its scan response, and both keep coming).
    public func keeping(_ newer: Self) -> Self {
        isComplete && !newer.isComplete && name.hasPrefix(newer.name) ? self : newer
    }
}
