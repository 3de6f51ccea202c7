import AirlinkCore
import Logging
import Synchronization

/// Something that wants advertisements: a ``Discovery``, or a connection waiting for its device.
protocol ScanClient: AnyObject, Sendable {
    /// What the client needs the transport to report.
    var scanFilter: ScanFilter { get }
    /// Receives one advertisement (the client applies its own filters).
    func receive(_ device: DeviceID, _ advertisement: Advertisement)
}

/// Shares the transport's one scan among every client: it scans with the union of their filters
/// while any client remains, and hands each advertisement to every client, in registration order.
final class ScanCoordinator: Sendable {
    private struct Entry {
        let id: ObjectIdentifier
        let client: any ScanClient
    }

    private struct State {
        var clients: [Entry] = []
        var active: ScanFilter?
    }

    private let transport: any Transport
    private let logger: Logger
    private let state = Mutex(State())
    private let gate = OperationGate()

    init(transport: any Transport, logger: Logger) {
        self.transport = transport
        self.logger = logger
    }

    /// Adds a client, then brings the transport's scan in line.
    ///
    /// - Throws: what the transport's `startScan` throws; the client is removed again then.
    func add(_ client: any ScanClient) async throws(AirlinkError) {
        register(client)
        do {
            try await reconcile()
        } catch {
            unregister(client)
            await reconcileLogging("after a scan that failed to start")
            throw error
        }
    }

    /// Adds a client without waiting for the transport (call ``reconcile()`` after).
    func register(_ client: any ScanClient) {
        state.withLock { $0.clients.append(Entry(id: ObjectIdentifier(client), client: client)) }
    }

    /// Removes a client, then brings the transport's scan in line.
    func remove(_ client: any ScanClient) async {
        unregister(client)
        await reconcileLogging("after a client left")
    }

    /// Removes a client without waiting for the transport (call ``reconcile()`` after).
    func unregister(_ client: any ScanClient) {
        let id = ObjectIdentifier(client)
        state.withLock { $0.clients.removeAll { $0.id == id } }
    }

    /// ``reconcile()`` for a caller nobody awaits (a client leaving, the adapter powering on, a connection
    /// starting or ending its watch): a failure is logged with its reason (`situation` says when it happened),
    /// and the next change of clients tries again.
    func reconcileLogging(_ situation: String) async {
        do {
            try await reconcile()
        } catch {
            logger.debug("bringing the scan in line \(situation) failed: \(error)")
        }
    }

    /// Starts, changes or stops the transport's scan to serve the clients registered now.
    func reconcile() async throws(AirlinkError) {
        try await gate.run { () async throws(AirlinkError) in
            let (wanted, active) = state.withLock { state in
                (Self.union(state.clients.map(\.client.scanFilter)), state.active)
            }
            guard wanted != active else { return }
            if let wanted {
                try await transport.startScan(wanted)
            } else {
                await transport.stopScan()
            }
            state.withLock { $0.active = wanted }
        }
    }

    /// The adapter went off: the transport stopped scanning by itself.
    func adapterPoweredOff() {
        state.withLock { $0.active = nil }
    }

    /// Hands an advertisement to every client.
    func deliver(_ device: DeviceID, _ advertisement: Advertisement) {
        let clients = state.withLock { $0.clients }
        for entry in clients { entry.client.receive(device, advertisement) }
    }

    /// The filter that serves every client: all devices if any client wants all, the services of
    /// all otherwise; duplicates if any client wants them; active if any client scans actively.
    static func union(_ filters: [ScanFilter]) -> ScanFilter? {
        guard !filters.isEmpty else { return nil }
        var services: [BluetoothUUID]? = []
        for filter in filters {
            guard let wanted = filter.services else {
                services = nil
                break
            }
            for uuid in wanted where !services!.contains(uuid) { services!.append(uuid) }
        }
        return ScanFilter(
            services: services, allowDuplicates: filters.contains { $0.allowDuplicates },
            isActive: filters.contains { $0.isActive })
    }
}
