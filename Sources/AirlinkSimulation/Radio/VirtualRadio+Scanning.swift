import AirlinkCore

extension VirtualRadio {
    /// Starts scanning (or replaces the filter of the running scan).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``.
    public func startScan(_ filter: ScanFilter) async throws(AirlinkError) {
        try world.lock.withLock { () throws(AirlinkError) in try startScanLocked(filter, client: 0) }
    }

    /// Stops scanning.
    public func stopScan() async {
        world.lock.withLock { stopScanLocked(client: 0) }
    }

    /// Starts or replaces one client's scan (the radio itself is client 0, each ``VirtualRadioSession`` another):
    /// the adapter scans with the union of the clients' filters, as bluetoothd merges its clients' discovery
    /// filters.
    func startScanLocked(_ filter: ScanFilter, client: Int) throws(AirlinkError) {
        assertConfined()
        try checkPowered("scan")
        if scanFilter == nil {
            world.scanningCentralCount += 1
            for peripheral in world.peripherals { peripheral.addObserver() }
        }
        scanClients.removeAll { $0.client == client }
        scanClients.append((client, filter))
        scanFilter = ScanFilter.union(scanClients.map(\.filter))
        seen = [:]
        let services = filter.services.map { $0.map(\.description).joined(separator: ",") } ?? "all"
        world.record(
            "radio",
            "\(tracePrefix)scan started services=\(services) duplicates=\(filter.allowDuplicates)"
                + (filter.isActive ? "" : " passive"))
    }

    /// Stops one client's scan; the adapter stops scanning when no client scans any more.
    func stopScanLocked(client: Int) {
        assertConfined()
        guard scanClients.contains(where: { $0.client == client }) else { return }
        scanClients.removeAll { $0.client == client }
        if scanClients.isEmpty {
            stopScanLocked()
        } else {
            scanFilter = ScanFilter.union(scanClients.map(\.filter))
        }
    }

    /// Stops the adapter's scan, every client's.
    func stopScanLocked() {
        assertConfined()
        scanClients = []
        guard scanFilter != nil else { return }
        scanFilter = nil
        world.scanningCentralCount -= 1
        for peripheral in world.peripherals { peripheral.removeObserver() }
        world.record("radio", "\(tracePrefix)scan stopped")
    }

    /// An advertisement of `peripheral` (which advertises) reached this central's antenna.
    func receive(from peripheral: RadioPeripheral, rssi: Int8) {
        assertConfined()
        // One copy of the advertisement per report (each copy retains its name and arrays), handed on
        // to the event.
        guard let filter = scanFilter, var reported = peripheral.advertisement, filter.admits(reported) else { return }
        if !filter.allowDuplicates {
            if let previous = seen[peripheral.id], previous == reported { return }
            seen[peripheral.id] = reported
        }
        reported.rssi = rssi
        let connectable = reported.isConnectable
        world.record(
            .advertisementHeard(
                adapter: adapterIndex, device: peripheral.id, name: reported.name, rssi: rssi,
                data: peripheral.advertisingData, connectable: connectable))
        emit(.advertisement(peripheral.id, consume reported))
        host?.advertisement(
            HostAdvertisement(
                device: peripheral.id, data: peripheral.advertisingData,
                scanResponse: filter.isActive ? peripheral.scanResponseData : nil,
                isConnectable: connectable, rssi: rssi))
        // An active scanner asks for the scan response at once and hears it within the same event, at the
        // same strength (no draw from the random source: a peripheral without one runs as it always did).
        if filter.isActive, var response = peripheral.scanResponse {
            response.rssi = rssi
            world.record(
                .scanResponseHeard(
                    adapter: adapterIndex, device: peripheral.id, name: response.name, rssi: rssi,
                    // try?: the response was decoded from its bytes when the peripheral was added; they encode again
                    data: (try? response.advertisingData()) ?? []))
            emit(.advertisement(peripheral.id, response))
        }
    }
}

extension ScanFilter {
    /// The filter that admits what any of `filters` admits: every service if one of them takes any,
    /// duplicates if one of them wants them.
    static func union(_ filters: [ScanFilter]) -> ScanFilter? {
        guard let first = filters.first else { return nil }
        var services: [BluetoothUUID]? = []
        for filter in filters {
            guard let wanted = filter.services, let known = services else {
                services = nil
                continue
            }
            services = known + wanted.filter { !known.contains($0) }
        }
        return filters.count == 1
            ? first
            : ScanFilter(
                services: services, allowDuplicates: filters.contains { $0.allowDuplicates },
                isActive: filters.contains { $0.isActive })
    }
}
