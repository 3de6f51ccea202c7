import AirlinkCore

extension BlueZTransport {
    /// Starts LE discovery: `SetDiscoveryFilter` (Transport `le`, the filter's UUIDs, `DuplicateData`),
    /// then `StartDiscovery`. Devices BlueZ reports (new ones, and known ones it sees again) arrive as
    /// ``/AirlinkCore/TransportEvent/advertisement(_:_:)`` events. Starting again replaces the filter.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``,
    ///   ``/AirlinkCore/AirlinkError/Code/transportUnavailable``,
    ///   ``/AirlinkCore/AirlinkError/Code/operationInProgress`` when BlueZ refuses because another client's change is
    ///   under way; ``/AirlinkCore/AirlinkError/Code/operationNotSupported`` for a passive scan
    ///   (``/AirlinkCore/ScanFilter/isActive`` off): BlueZ's discovery always scans actively.
    public func startScan(_ filter: ScanFilter) async throws(AirlinkError) {
        try await startScan(filter, rssiThreshold: nil)
    }

    /// Starts LE discovery as ``startScan(_:)`` does, reporting only devices at least as strong as
    /// `rssiThreshold` (BlueZ's `RSSI` filter, in dBm).
    public func startScan(_ filter: ScanFilter, rssiThreshold: Int?) async throws(AirlinkError) {
        let context = "scan on \(adapterName)"
        guard filter.isActive else {
            throw AirlinkError(
                .operationNotSupported,
                "BlueZ's discovery always scans actively (StartDiscovery has no passive mode): ask for an "
                    + "active scan (ScanFilter.isActive)", context: context)
        }
        let wasScanning = try state.withLock { (state) throws(AirlinkError) -> Bool in
            try checkUsable(state, context: context)
            let was = state.scan != nil
            state.scan = filter
            return was
        }
        var options: [(String, DBusValue)] = [
            ("Transport", .string("le")), ("DuplicateData", .boolean(filter.allowDuplicates)),
        ]
        if let services = filter.services {
            options.append(("UUIDs", .strings(services.map { $0.uuidString.lowercased() })))
        }
        if let rssiThreshold {
            guard let rssi = Int16(exactly: rssiThreshold), (-127...20).contains(rssi) else {
                throw AirlinkError(
                    .invalidArgument, "an RSSI threshold lies between -127 and 20 dBm, not \(rssiThreshold)",
                    context: context)
            }
            options.append(("RSSI", .int16(rssi)))
        }
        do {
            _ = try await callBlueZ(
                path: adapterPath, interface: BlueZInterface.adapter, member: "SetDiscoveryFilter",
                arguments: [.properties(options)], operation: .scan, context: context)
            guard !wasScanning else { return }
            do {
                _ = try await callBlueZ(
                    path: adapterPath, interface: BlueZInterface.adapter, member: "StartDiscovery", operation: .scan,
                    context: context)
            } catch  where error.code == .operationInProgress {
                // This client's discovery session runs already (BlueZ answers InProgress).
            }
        } catch {
            if !wasScanning { state.withLock { $0.scan = nil } }
            throw error
        }
    }

    /// Stops discovery; does nothing when this transport is not scanning.
    public func stopScan() async {
        let wasScanning = state.withLock { state -> Bool in
            let was = state.scan != nil
            state.scan = nil
            return was && state.lost == nil && !state.closed
        }
        guard wasScanning else { return }
        do {
            _ = try await callBlueZ(
                path: adapterPath, interface: BlueZInterface.adapter, member: "StopDiscovery", operation: .scan,
                context: "stop scan on \(adapterName)")
        } catch {
            logger.debug("StopDiscovery: \(error)")
        }
    }
}
