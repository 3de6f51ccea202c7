import AirlinkCore

/// The devices an app has connected to, so that it can connect to a known device directly instead
/// of discovering it again (CoreBluetooth's `retrievePeripherals(withIdentifiers:)` answers from such
/// a list).
///
/// A registry applies the recording rules (``ConnectionRecord/recording(_:)``) on top of one
/// ``DeviceRepository``; several registries may live side by side, each on its own repository.
///
/// ```swift
/// let registry = DeviceRegistry(repository: try JSONFileDeviceRepository())
/// try await registry.recordConnection(device: id, name: "Thermostat", services: [.battery], at: clock.now)
/// if let last = try await registry.lastConnectedDevice() { print("reconnecting to", last.id) }
/// ```
///
/// The registry reads no clock: each connection's time comes from the caller (see ``RecordClock``),
/// so a simulation records the same values on every run.
public actor DeviceRegistry {
    /// Where the records are kept.
    public nonisolated let repository: any DeviceRepository

    /// Creates a registry on `repository`.
    ///
    /// - Parameter repository: where the records are kept.
    public init(repository: any DeviceRepository) {
        self.repository = repository
    }

    /// Whether a change holds the repository now; the changes waiting for it, in order. The actor alone does
    /// not keep changes apart: it lets another call in while one awaits the repository, and a repository's
    /// ``DeviceRepository/update(_:_:)`` may read and save in two steps.
    private var changing = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Told, on the registry's actor, each time a change starts waiting for its turn; `nil` by default. A seam for
    /// tests (package access, not part of the API): with it a test knows that a second change is queued behind one
    /// its repository holds, without waiting a while to see whether it reads (`RegistryTurnsTests`).
    package private(set) var changeWaitsForItsTurn: (@Sendable () -> Void)?

    /// Sets ``changeWaitsForItsTurn``.
    package func onChangeWaitingForItsTurn(_ observer: @escaping @Sendable () -> Void) {
        changeWaitsForItsTurn = observer
    }

    /// Runs `change` when no other change of this registry runs, in the order the calls came.
    private func exclusively<Value: Sendable>(
        _ change: () async throws(AirlinkError) -> Value
    ) async throws(AirlinkError) -> Value {
        if changing {
            await withCheckedContinuation {
                waiting.append($0)  // handed the turn by the one before
                changeWaitsForItsTurn?()
            }
        } else {
            changing = true
        }
        defer {
            if waiting.isEmpty { changing = false } else { waiting.removeFirst().resume() }
        }
        return try await change()
    }

    /// Records a connection to `device`: creates its record on the first connection, otherwise
    /// counts one more connection and updates the last connection's time, the name and the layout
    /// as ``ConnectionRecord/recording(_:)`` says.
    ///
    /// - Parameters:
    ///   - device: the device connected to.
    ///   - name: its name, if known (no name keeps the stored one).
    ///   - services: the services discovered on this connection, if any (none keeps the stored ones).
    ///   - databaseHash: the GATT Database Hash read on this connection, if any; a different hash
    ///     replaces the stored services.
    ///   - time: when the connection was established, from the caller's clock.
    /// - Returns: the stored record.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidDeviceID`` or
    ///   ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a record that cannot be stored (see
    ///   ``ConnectionRecord/validate()``), or a storage error.
    @discardableResult
    public func recordConnection(
        device: DeviceID,
        name: String? = nil,
        services: [BluetoothUUID] = [],
        databaseHash: [UInt8]? = nil,
        at time: RecordTimestamp
    ) async throws(AirlinkError) -> ConnectionRecord {
        let connection = ConnectionRecord.Connection(
            name: name, services: services, databaseHash: databaseHash, at: time)
        try ConnectionRecord.validate(device)
        return try await exclusively { () async throws(AirlinkError) -> ConnectionRecord in
            try await repository.update(device) { stored in
                stored?.recording(connection) ?? ConnectionRecord(id: device, firstConnection: connection)
            }
        }
    }

    /// The device connected to last, or `nil` if none is known: the one `airlink connect --last`
    /// connects to.
    ///
    /// - Throws: a storage error.
    public func lastConnectedDevice() async throws(AirlinkError) -> ConnectionRecord? {
        try await repository.lastConnected()
    }

    /// Every known device, the last connected first.
    ///
    /// - Throws: a storage error.
    public func knownDevices() async throws(AirlinkError) -> [ConnectionRecord] {
        try await repository.all()
    }

    /// The records of the known devices among `ids`, in the order of `ids`; unknown ids are left
    /// out (as `retrievePeripherals(withIdentifiers:)` does).
    ///
    /// - Parameter ids: the devices asked for.
    /// - Throws: a storage error.
    public func knownDevices(withIDs ids: [DeviceID]) async throws(AirlinkError) -> [ConnectionRecord] {
        var records: [ConnectionRecord] = []
        for id in ids {
            if let record = try await repository.record(for: id) { records.append(record) }
        }
        return records
    }

    /// The record of `id`, or `nil` if the device is not known.
    ///
    /// - Parameter id: the device.
    /// - Throws: a storage error.
    public func record(for id: DeviceID) async throws(AirlinkError) -> ConnectionRecord? {
        try await repository.record(for: id)
    }

    /// Forgets `id`: the next connection to it starts a new record.
    ///
    /// - Parameter id: the device.
    /// - Returns: whether the device was known.
    /// - Throws: a storage error.
    @discardableResult
    public func forget(_ id: DeviceID) async throws(AirlinkError) -> Bool {
        try await exclusively { () async throws(AirlinkError) -> Bool in try await repository.remove(id) }
    }

    /// Forgets every device.
    ///
    /// - Throws: a storage error.
    public func forgetAll() async throws(AirlinkError) {
        try await exclusively { () async throws(AirlinkError) in try await repository.removeAll() }
    }
}
