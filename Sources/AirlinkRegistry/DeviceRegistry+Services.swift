import AirlinkCore

extension DeviceRegistry {
    /// Records the services a device was seen to have, without counting a connection.
    ///
    /// Services are usually discovered after the connection was recorded; this keeps the record's
    /// layout current. A device with no record yet gets one (first connected at `time`).
    ///
    /// - Parameters:
    ///   - services: the services discovered, in handle order.
    ///   - device: the device.
    ///   - time: when they were discovered.
    /// - Returns: the record as saved.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for an invalid id; what the repository throws.
    @discardableResult
    public func recordServices(
        _ services: [BluetoothUUID], of device: DeviceID, at time: RecordTimestamp
    ) async throws(AirlinkError) -> ConnectionRecord {
        try ConnectionRecord.validate(device)
        return try await repository.update(device) { stored in
            guard var record = stored else {
                return ConnectionRecord(id: device, services: services, firstConnected: time)
            }
            record.services = services
            return record
        }
    }
}
