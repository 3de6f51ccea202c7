import AirlinkCore
import AirlinkRegistry
import Logging
import Synchronization

/// Saves a connection record for every established connection (and reconnection) into a
/// ``/AirlinkRegistry/DeviceRegistry``, one save at a time and in the order the connections happened.
///
/// The name is the one the device last advertised, when a scan heard it; the services are those
/// discovered on the link (updated when a full service discovery completes); the time comes from
/// the ``/AirlinkRegistry/RecordClock`` on the environment's clock. A failed save is logged and traced, never thrown
/// at the connection: remembering a device must not break using it.
final class ConnectionRecorder: Sendable {
    private struct State {
        var names: [DeviceID: Advertisement.LocalName] = [:]
        var last: Task<Void, Never>?
    }

    let registry: DeviceRegistry
    let clock: RecordClock
    private let environment: AirlinkEnvironment
    private let state = Mutex(State())

    init(registry: DeviceRegistry, clock: RecordClock, environment: AirlinkEnvironment) {
        self.registry = registry
        self.clock = clock
        self.environment = environment
    }

    /// Remembers the name a device advertised: its complete name once one was heard (a shortened one in
    /// a later advertising PDU does not replace it).
    func noteAdvertisement(_ device: DeviceID, _ advertisement: Advertisement) {
        guard let name = advertisement.localName else { return }
        state.withLock { state in
            let kept = state.names[device].map { $0.keeping(name) } ?? name
            if state.names[device] != kept { state.names[device] = kept }
        }
    }

    /// Records an established connection.
    func connectionEstablished(_ device: DeviceID, services: [BluetoothUUID]) {
        let time = clock.now
        let name = state.withLock { $0.names[device]?.name }
        enqueue(device, .connection) { registry throws(AirlinkError) in
            try await registry.recordConnection(device: device, name: name, services: services, at: time)
        }
    }

    /// Records the services a full discovery found.
    func servicesDiscovered(_ device: DeviceID, services: [BluetoothUUID]) {
        let time = clock.now
        enqueue(device, .services) { registry throws(AirlinkError) in
            try await registry.recordServices(services, of: device, at: time)
        }
    }

    /// Caches the database discovered on a link, with the Database Hash it was taken under, in the device's
    /// record (a device the registry does not know, or forgot, gets none).
    func databaseCached(_ device: DeviceID, database: CachedGATTDatabase, hash: [UInt8]?) {
        let time = clock.now
        enqueue(device, .database) { registry throws(AirlinkError) in
            try await registry.recordDatabase(database, hash: hash, of: device, at: time)
        }
    }

    /// Keeps the bond a pairing left in the device's record (a device the registry does not know gets none).
    func bondRecorded(_ device: DeviceID, _ result: PairingResult) {
        let bond = BondRecord(result, at: clock.now)
        enqueue(device, .bond) { registry throws(AirlinkError) in try await registry.recordBond(bond, of: device) }
    }

    /// The bond the registry keeps for `device`, once the saves asked for so far are done (`nil`: none, or the
    /// registry could not be read, which is logged and traced).
    func bond(of device: DeviceID) async -> BondRecord? {
        await settle()
        do throws(AirlinkError) {
            return try await registry.record(for: device)?.bond
        } catch {
            environment.trace.record("registry", "reading the bond of \(device) failed: \(error)")
            environment.logger.warning("reading the bond of \(device) from the registry failed: \(error)")
            return nil
        }
    }

    /// Drops the bond from the device's record: the device forgot it.
    func bondForgotten(_ device: DeviceID) {
        enqueue(device, .bond) { registry throws(AirlinkError) in try await registry.forgetBond(of: device) }
    }

    /// Returns once every save asked for so far is done.
    func settle() async {
        while let last = state.withLock({ $0.last }) {
            await last.value
            let done = state.withLock { state -> Bool in
                guard state.last == last else { return false }
                state.last = nil
                return true
            }
            if done { return }
        }
    }

    private func enqueue(
        _ device: DeviceID, _ what: LayerTraceEvent.RegistrySave,
        _ save: @escaping @Sendable (DeviceRegistry) async throws(AirlinkError) -> ConnectionRecord?
    ) {
        let (registry, environment) = (self.registry, self.environment)
        state.withLock { state in
            let previous = state.last
            state.last = environment.spawn {
                await previous?.value
                do throws(AirlinkError) {
                    // `nil`: nothing to save (a cache of a device the registry does not know)
                    guard let record = try await save(registry) else { return }
                    environment.trace.record(
                        .registrySaved(
                            device: device, what: what, connectionCount: record.connectionCount,
                            serviceCount: record.services.count))
                } catch {
                    environment.trace.record(.registrySaveFailed(device: device, what: what, error: error))
                    environment.logger.warning("saving the \(what.text(device)) failed: \(error)")
                }
            }
        }
    }
}
