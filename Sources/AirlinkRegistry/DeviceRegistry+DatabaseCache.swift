import AirlinkCore

extension DeviceRegistry {
    /// Stores the discovered database of a device with the Database Hash it was taken under (`nil`: the
    /// device serves none), without counting a connection. A device the registry does not know (never
    /// recorded, or forgotten meanwhile) gets no record: a cache alone does not make a device known.
    ///
    /// - Parameters:
    ///   - database: what the layers discovered.
    ///   - hash: the device's Database Hash while it served `database`, or `nil`.
    ///   - device: the device.
    ///   - time: when it was discovered (kept for symmetry with the other recordings; a cache has no time).
    /// - Returns: the record as saved, or `nil` when the device is not known.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for an invalid id or database (naming the
    ///   field); what the repository throws.
    @discardableResult
    public func recordDatabase(
        _ database: CachedGATTDatabase, hash: [UInt8]?, of device: DeviceID, at time: RecordTimestamp
    ) async throws(AirlinkError) -> ConnectionRecord? {
        try ConnectionRecord.validate(device)
        try database.validate()
        guard try await repository.record(for: device) != nil else { return nil }
        return try await repository.update(device) { stored throws(AirlinkError) -> ConnectionRecord in
            // Forgotten between the look-up and the update: recreate nothing but what was there.
            guard var record = stored else { throw Self.forgottenMeanwhile(device) }
            record.database = database
            record.databaseHash = hash
            if database.complete { record.services = database.services.map(\.service.uuid) }
            return record
        }
    }

    private static func forgottenMeanwhile(_ device: DeviceID) -> AirlinkError {
        AirlinkError(.deviceNotFound, "\(device) was forgotten while its cached database was being saved")
    }

    /// Drops the cached database of `device` and its hash, keeping the rest of its record: the next
    /// connection discovers the database again.
    ///
    /// - Parameter device: the device.
    /// - Returns: whether the device had a cached database or hash.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/deviceNotFound`` when the registry does not know the device;
    ///   what the repository throws.
    @discardableResult
    public func forgetDatabase(of device: DeviceID) async throws(AirlinkError) -> Bool {
        guard let stored = try await repository.record(for: device) else {
            throw AirlinkError(
                .deviceNotFound, "\(device) is not in the registry; `airlink devices` lists the known devices")
        }
        guard stored.database != nil || stored.databaseHash != nil else { return false }
        _ = try await repository.update(device) { current in
            var record = current ?? stored
            record.database = nil
            record.databaseHash = nil
            return record
        }
        return true
    }
}
