import AirlinkCore

/// What a peripheral that bonds with its centrals keeps of one of them between connections (Core Spec Vol 3,
/// Part G, 2.5.2.1 and 3.3.3.3): its CCCD values and its caching state.
struct RememberedClient {
    var address: DeviceID
    var state: ATTClientCachingState
    var clientConfigurations: [ATTHandle: UInt16]
}

extension RadioPeripheral {
    /// A central connected: a bonded one gets back what it left (its subscriptions, features and change-aware
    /// state), and a database change it has not confirmed is indicated on Service Changed now, as a server does
    /// when a bonded client reconnects (Vol 3, Part G, 7.1). A central without a bond starts afresh.
    func clientConnected(_ link: Link) {
        assertConfined()
        guard isBonded(link.central.address),
            let remembered = rememberedClients.first(where: { $0.address == link.central.address })
        else { return }
        link.server.restoreClient(remembered.state, clientConfigurations: remembered.clientConfigurations)
        let actions = link.server.indicateUnconfirmedServiceChange()
        if !actions.isEmpty {
            world.record(
                "peripheral", "\(link.central.tracePrefix)\(idText) indicates the change made while it was away")
        }
        link.performServerActions(actions)
    }

    /// A link ended: a bonded central's state is kept for its next connection.
    func clientDisconnected(_ link: Link) {
        assertConfined()
        guard isBonded(link.central.address) else { return }
        let remembered = RememberedClient(
            address: link.central.address, state: link.server.clientState,
            clientConfigurations: link.server.clientConfigurations)
        if let index = rememberedClients.firstIndex(where: { $0.address == remembered.address }) {
            rememberedClients[index] = remembered
        } else {
            rememberedClients.append(remembered)
        }
    }

    /// The database changed while bonded centrals were away: each becomes change-unaware, and one subscribed to
    /// Service Changed has the range to be told when it comes back (if the firmware announces changes).
    func absentClientsSawChange(_ range: ClosedRange<ATTHandle>, announced: Bool, in database: AttributeDatabase) {
        assertConfined()
        let connected = links.map(\.central.address)
        for index in rememberedClients.indices where !connected.contains(rememberedClients[index].address) {
            var subscribed = false
            if let handle = database.serviceChangedHandle, let cccd = database.cccdHandle(forValue: handle) {
                subscribed = (rememberedClients[index].clientConfigurations[cccd] ?? 0) & 0x0002 != 0
            }
            rememberedClients[index].clientConfigurations = rememberedClients[index].clientConfigurations
                .filter { !range.contains($0.key) }
            rememberedClients[index].state.databaseChanged(range, announced: announced && subscribed)
        }
    }
}
