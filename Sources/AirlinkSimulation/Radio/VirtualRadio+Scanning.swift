import AirlinkCore

extension VirtualRadio {
    /// Starts scanning (or replaces the filter of the running scan).
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``.
    public func startScan(_ filter: ScanFilter) async throws(AirlinkError) {
        try world.lock.withLock { () throws(AirlinkError) in
            try checkPowered("scan")
            if scanFilter == nil {
                world.scanningCentralCount += 1
                for peripheral in world.peripherals { peripheral.addObserver() }
            }
            scanFilter = filter
            seen = [:]
            let services = filter.services.map { $0.map(\.description).joined(separator: ",") } ?? "all"
            world.record(
                "radio", "\(tracePrefix)scan started services=\(services) duplicates=\(filter.allowDuplicates)")
        }
    }

    /// Stops scanning.
    public func stopScan() async {
        world.lock.withLock { stopScanLocked() }
    }

    func stopScanLocked() {
        guard scanFilter != nil else { return }
        scanFilter = nil
        world.scanningCentralCount -= 1
        for peripheral in world.peripherals { peripheral.removeObserver() }
        world.record("radio", "\(tracePrefix)scan stopped")
    }

    /// An advertisement of `peripheral` (which advertises) reached this central's antenna.
    func receive(from peripheral: PeripheralModel, rssi: Int8) {
        guard let filter = scanFilter, let advertisement = peripheral.advertisement, filter.admits(advertisement)
        else { return }
        if !filter.allowDuplicates {
            if let previous = seen[peripheral.id], previous == advertisement { return }
            seen[peripheral.id] = advertisement
        }
        var reported = advertisement
        reported.rssi = rssi
        world.record(
            .advertisementHeard(
                adapter: adapterIndex, device: peripheral.id, name: advertisement.name, rssi: rssi,
                data: peripheral.advertisingData, connectable: advertisement.isConnectable))
        emit(.advertisement(peripheral.id, reported))
    }
}
