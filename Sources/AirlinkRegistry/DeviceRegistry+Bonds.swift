import AirlinkCore

extension DeviceRegistry {
    /// Keeps the bond a pairing left in the device's record, without counting a connection. A device the
    /// registry does not know (never recorded, or forgotten meanwhile) gets no record.
    ///
    /// - Returns: the record as saved, or `nil` when the device is not known.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for an invalid id; what the repository throws.
    @discardableResult
    public func recordBond(_ bond: BondRecord, of device: DeviceID) async throws(AirlinkError) -> ConnectionRecord? {
        try await updateKnown(device) { $0.bond = bond }
    }

    /// Drops the bond from the device's record (the device lost it); the rest of the record stays.
    ///
    /// - Returns: the record as saved, or `nil` when the device is not known.
    /// - Throws: what the repository throws.
    @discardableResult
    public func forgetBond(of device: DeviceID) async throws(AirlinkError) -> ConnectionRecord? {
        try await updateKnown(device) { $0.bond = nil }
    }

    private func updateKnown(
        _ device: DeviceID, _ change: @escaping @Sendable (inout ConnectionRecord) -> Void
    ) async throws(AirlinkError) -> ConnectionRecord? {
        try ConnectionRecord.validate(device)
        guard try await repository.record(for: device) != nil else { return nil }
        return try await repository.update(device) { stored throws(AirlinkError) -> ConnectionRecord in
            guard var record = stored else {
                throw AirlinkError(.deviceNotFound, "\(device) was forgotten while its bond was being saved")
            }
            change(&record)
            return record
        }
    }
}
