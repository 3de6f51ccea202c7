import AirlinkCore
import AirlinkRegistry

extension GATTClient {
    /// As a link comes up, in the link's first turn: reads the device's Database Hash (one Read By Type
    /// Request for 0x2B2A), compares it with the one the registry's cached database was taken under, and
    /// installs the cached handles when ``DatabaseCacheDecision`` says so; otherwise reports
    /// ``/AirlinkCore/ServicesEvent/databaseChanged(_:)`` and leaves the caches empty, to be discovered on next use.
    ///
    /// A Service Changed that arrives meanwhile (a new ``State/generation``) wins: nothing is installed.
    func checkCachedDatabase(ticket: OperationGate.Ticket, generation: Int, changedWhileDown: Bool) async {
        do throws(AirlinkError) {
            try await gate.run(ticket) { () async throws(AirlinkError) in
                await recorder?.settle()  // the last link's cache is saved
                let record = await cachedRecord()
                guard state.withLock({ $0.generation == generation && $0.info != nil }) else { return }
                let served = try await readDatabaseHash()
                let cached = record?.database
                let decision = DatabaseCacheDecision.decide(
                    cached: cached != nil, cachedHash: record?.databaseHash, servedHash: served, caching: caching,
                    changedMeanwhile: changedWhileDown)
                let registries = (cached?.services ?? []).map { registry(for: $0.service.uuid) }
                let installed = state.withLock { state -> Bool in
                    guard state.generation == generation, state.info != nil else { return false }
                    state.hash = served
                    state.hashGeneration = generation
                    guard case .reuse(let trust) = decision, let cached else { return true }
                    Self.install(cached, registries: registries, into: &state)
                    state.reusedCache = trust
                    return true
                }
                guard installed else { return }
                var staleStack = false
                if decision == .rediscover(.hashChanged), let cached {
                    staleStack = try await stackServesCached(cached)
                }
                switch decision {
                case .reuse(let trust):
                    bus.publish(.services(device, .databaseCacheReused(trust, services: cached?.services.count ?? 0)))
                case .rediscover(let reason?):
                    bus.publish(.services(device, .databaseChanged(reason)))
                case .rediscover(nil):
                    break
                }
                if staleStack { bus.publish(.services(device, .stackCacheStale(.hashMismatch))) }
            }
        } catch {
            logger.debug("checking the cached database failed: \(error)")
        }
    }

    /// Whether the transport's stack keeps a database of its own (``/AirlinkCore/StackDatabaseCache``, BlueZ)
    /// and still answers discovery with `cached`, the database the registry kept under a hash the device no
    /// longer serves: then the stack did not rediscover after the device changed, and its copy is stale.
    ///
    /// Costs nothing on the air where it is asked: such a stack answers discovery from its own objects.
    private func stackServesCached(_ cached: CachedGATTDatabase) async throws(AirlinkError) -> Bool {
        guard let stack = transport as? any StackDatabaseCache, stack.answersDiscoveryFromOwnCache else {
            return false
        }
        let served = try await transport.discoverServices(device, uuids: nil)
        let expected = cached.services.map(\.service).sorted { $0.handles.lowerBound < $1.handles.lowerBound }
        guard cached.complete ? served == expected : expected.allSatisfy(served.contains) else { return false }
        for entry in cached.services {
            let characteristics = try await transport.discoverCharacteristics(device, of: entry.service, uuids: nil)
            let same =
                entry.complete
                ? characteristics == entry.characteristics : entry.characteristics.allSatisfy(characteristics.contains)
            if !same { return false }
        }
        return true
    }

    /// The Database Hash the device serves, or `nil` when it serves none (or refuses to be read).
    private func readDatabaseHash() async throws(AirlinkError) -> [UInt8]? {
        do {
            return try await transport.readValue(device, ofType: .databaseHash)
        } catch  where error.code == .attribute {
            return nil
        }
    }

    /// Puts a cached database into the link's caches, routes included.
    private static func install(_ cached: CachedGATTDatabase, registries: [ObserverRegistry], into state: inout State) {
        for (entry, registry) in zip(cached.services, registries) {
            var cache = ServiceCache(service: entry.service)
            for characteristic in entry.characteristics {
                cache.characteristics[characteristic.uuid] = characteristic
                state.routes[characteristic.valueHandle] = Route(
                    service: entry.service.uuid, characteristic: characteristic.uuid, registry: registry)
            }
            if entry.complete { cache.allCharacteristics = entry.characteristics }
            cache.descriptors = entry.descriptors
            state.services[entry.service.uuid] = cache
        }
        if cached.complete { state.allServices = cached.services.map(\.service) }
    }

    /// Saves the link's database when something was discovered (or the database changed) since the last save: as
    /// each operation ends, and as the link goes down.
    func saveCachedDatabaseIfChanged() {
        let unsaved = state.withLock { state -> Bool in
            defer { state.unsaved = false }
            return state.unsaved && state.info != nil
        }
        if unsaved { saveCachedDatabase() }
    }

    /// Saves the link's database, if something changed, once no operation holds the client's turn: after the
    /// caller's continuation has run, an operation it issued next has the turn and saves when it ends. A save
    /// rewrites the device's whole cached database, so saving after every operation of a run made discovering a
    /// database of n services cost n² (3,000 services: minutes).
    func saveCachedDatabaseWhenIdle() {
        environment.spawn { [self] in
            guard !gate.isBusy else { return }  // the operation running now saves when it ends
            saveCachedDatabaseIfChanged()
        }
    }

    /// Saves what was discovered on the link going down, with the hash read as it came up (none if the
    /// database changed since: the next link's hash will not match it, so it is not reused on trust of a
    /// hash that described another layout).
    func saveCachedDatabase() {
        let (database, hash) = state.withLock { state -> (CachedGATTDatabase?, [UInt8]?) in
            guard state.info != nil, !state.services.isEmpty else { return (nil, nil) }
            let services = state.services.values.map { cache in
                CachedGATTDatabase.Service(
                    service: cache.service,
                    characteristics: (cache.allCharacteristics ?? Array(cache.characteristics.values))
                        .sorted { $0.valueHandle < $1.valueHandle },
                    complete: cache.allCharacteristics != nil, descriptors: cache.descriptors)
            }
            let hash = state.hashGeneration == state.generation ? state.hash : nil
            return (CachedGATTDatabase(services: services, complete: state.allServices != nil), hash)
        }
        guard let database, let recorder else { return }
        recorder.databaseCached(device, database: database, hash: hash)
    }

    /// The registry's record of the device, or `nil` when there is none or it cannot be read: an unreadable
    /// record is logged with its reason, and the database is discovered afresh (as with no cache).
    private func cachedRecord() async -> ConnectionRecord? {
        do {
            return try await recorder?.registry.record(for: device)
        } catch {
            logger.warning("reading the cached database of \(device) failed, so it is discovered afresh: \(error)")
            return nil
        }
    }
}
