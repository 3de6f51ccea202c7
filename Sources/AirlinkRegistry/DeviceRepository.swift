import AirlinkCore

/// Where a ``DeviceRegistry`` keeps its ``ConnectionRecord``s, one per device id.
///
/// Airlink ships ``JSONFileDeviceRepository`` (the default) and `SQLiteDeviceRepository` (module
/// AirlinkRegistrySQLite). To keep records elsewhere (a keychain, an app's own database), conform a
/// type to this protocol; Docs/Registry.md has an example. A conforming type:
///
/// - calls ``ConnectionRecord/validate()`` before storing a record and rejects what it throws;
/// - returns ``all()`` in ``ConnectionRecord/isMoreRecent(_:than:)`` order;
/// - throws ``/AirlinkCore/AirlinkError`` only, with ``/AirlinkCore/AirlinkError/Code/storageFailed``,
///   ``/AirlinkCore/AirlinkError/Code/corruptStore`` or ``/AirlinkCore/AirlinkError/Code/unsupportedStoreVersion`` for
///   a store it cannot use, naming the store in the error's context;
/// - is safe to call from several tasks at once.
///
/// ``lastConnected()``, ``removeAll()`` and ``update(_:_:)`` have default implementations built on
/// the other requirements; a store that can do better (an index, a transaction) should implement them.
public protocol DeviceRepository: Sendable {
    /// Stores `record`, replacing any record of the same device.
    ///
    /// - Parameter record: the record to store.
    /// - Throws: what ``ConnectionRecord/validate()`` throws, or a storage error.
    func save(_ record: ConnectionRecord) async throws(AirlinkError)

    /// The record of device `id`, or `nil` if the device is not known.
    ///
    /// - Parameter id: the device.
    /// - Throws: a storage error.
    func record(for id: DeviceID) async throws(AirlinkError) -> ConnectionRecord?

    /// Every record: the last connected first, ties by id (``ConnectionRecord/isMoreRecent(_:than:)``).
    ///
    /// - Throws: a storage error.
    func all() async throws(AirlinkError) -> [ConnectionRecord]

    /// The record of the device connected to last, or `nil` if none is known.
    ///
    /// - Throws: a storage error.
    func lastConnected() async throws(AirlinkError) -> ConnectionRecord?

    /// Removes the record of device `id`.
    ///
    /// - Parameter id: the device.
    /// - Returns: whether there was a record to remove.
    /// - Throws: a storage error.
    @discardableResult
    func remove(_ id: DeviceID) async throws(AirlinkError) -> Bool

    /// Removes every record.
    ///
    /// - Throws: a storage error.
    func removeAll() async throws(AirlinkError)

    /// Reads the record of device `id`, passes it to `change` and stores what `change` returns, as
    /// one step that no other change to the store interleaves with.
    ///
    /// - Parameters:
    ///   - id: the device.
    ///   - change: given the stored record or `nil`, returns the record to store; it must keep `id`.
    /// - Returns: the stored record.
    /// - Throws: what `change` throws, what ``ConnectionRecord/validate()`` throws, or a storage error.
    func update(
        _ id: DeviceID, _ change: @escaping @Sendable (ConnectionRecord?) throws(AirlinkError) -> ConnectionRecord
    ) async throws(AirlinkError) -> ConnectionRecord
}

extension DeviceRepository {
    /// The first of ``all()``.
    public func lastConnected() async throws(AirlinkError) -> ConnectionRecord? {
        try await all().first
    }

    /// Removes each of ``all()``.
    public func removeAll() async throws(AirlinkError) {
        for record in try await all() { try await remove(record.id) }
    }

    /// ``record(for:)``, then `change`, then ``save(_:)``.
    ///
    /// Atomic only against callers that go through one ``DeviceRegistry`` (an actor); a store shared
    /// by several registries or processes should implement it as one transaction.
    public func update(
        _ id: DeviceID, _ change: @escaping @Sendable (ConnectionRecord?) throws(AirlinkError) -> ConnectionRecord
    ) async throws(AirlinkError) -> ConnectionRecord {
        let record = try change(try await record(for: id))
        try Self.checkUpdate(of: id, produced: record)
        try await save(record)
        return record
    }

    /// Checks that an ``update(_:_:)`` change kept the device's id.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` if it did not.
    public static func checkUpdate(of id: DeviceID, produced record: ConnectionRecord) throws(AirlinkError) {
        guard record.id == id else {
            throw AirlinkError(
                .invalidArgument,
                "an update of \(id)'s record returned the record of \(record.id); "
                    + "change a record's fields, not its id")
        }
    }
}
