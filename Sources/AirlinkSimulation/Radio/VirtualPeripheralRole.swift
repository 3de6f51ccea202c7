import AirlinkCore

/// The peripheral role of one ``VirtualRadio``: the database the app serves, its advertising, and the
/// ``RadioPeripheral`` that stands for the app on the air while it advertises or has centrals.
///
/// Guarded by the world's lock. The model calls back (``centralConnected(_:)``,
/// ``centralDisconnected(_:reason:)``, ``subscriptionChanged(_:valueHandle:notify:indicate:)``) so that
/// the app hears what centrals do.
final class VirtualPeripheralRole: RadioConfined, @unchecked Sendable {
    // @unchecked: every mutable field is used under `world.lock`; debug builds check it at each entry point
    // (``RadioConfined/assertConfined(_:file:line:)``).
    unowned let world: RadioWorld
    let address: DeviceID
    var name: String?
    var services: [Service] = []
    var advertising: Advertising?
    var model: RadioPeripheral?
    /// How the app answers centrals that pair (``VirtualRadio/setSecurity(_:)``).
    var security = PeripheralRoleSecurity()
    /// Every subscriber of ``VirtualRadio/peripheralEvents()``.
    let broadcaster = Broadcaster<PeripheralEvent>()

    init(world: RadioWorld, address: DeviceID) {
        self.world = world
        self.address = address
    }

    /// Tells every subscriber what a central did.
    func emit(_ event: PeripheralEvent) {
        broadcaster.yield(event)
    }

    func centralConnected(_ link: Link) {
        assertConfined()
        emit(.centralConnected(link.central.address))
    }

    func centralDisconnected(_ link: Link, reason: DisconnectionReason) {
        assertConfined()
        guard link.isUp else { return }
        emit(.centralDisconnected(link.central.address, reason: reason))
    }

    func subscriptionChanged(_ link: Link, valueHandle: ATTHandle, notify: Bool, indicate: Bool) {
        assertConfined()
        guard let entry = link.peripheral.entry(valueHandle: valueHandle) else { return }
        let mode: NotificationMode = indicate ? .indicate : notify ? .notify : .disabled
        emit(
            .subscriptionChanged(
                link.central.address, service: entry.service, characteristic: entry.spec.uuid, mode: mode))
    }

    /// The spec the app's peripheral is simulated from.
    func spec(name: String, advertising: Advertising?) -> PeripheralSpec {
        assertConfined()
        var spec = PeripheralSpec(name: name, id: address, maximumConnections: 8) {}
        spec.services = services
        spec.advertising = advertising
        return spec
    }

    /// Takes the app's peripheral off the air: its links drop (reason 0x16, local host terminated).
    func removeModel(recording: Bool = true) {
        assertConfined()
        guard let model else { return }
        self.model = nil
        for link in model.links { link.drop(reason: .localHostTerminated) }
        model.isAdvertisingEnabled = false
        model.observers = 0
        model.advertisingGeneration += 1  // ends its chain of advertising events
        model.host = nil
        world.peripherals.removeAll { $0 === model }
        world.peripheralsByID[model.id] = nil
        if recording { world.record("radio", "\(address) peripheral role off the air") }
    }

    /// Puts the app's peripheral on the air with the current database and advertising, in place of
    /// the one there (which has no centrals: callers check). A new database is traced (`serves`); a
    /// new advertisement is traced by the caller (`advertises`).
    func installModel(newDatabase: Bool) throws(AirlinkError) {
        assertConfined()
        guard let name else { return }
        let spec = spec(name: name, advertising: advertising)
        let advertisingData = try spec.validatedAdvertisingData()
        let layout: AttributeTableBuilder
        do {
            layout = try AttributeTableBuilder(spec.gattDefinition)
        } catch {
            throw AirlinkError(.invalidSpecification, "peripheral \"\(name)\": \(error.message)")
        }
        removeModel(recording: false)
        let model = try RadioPeripheral(world: world, spec: spec, layout: layout, advertisingData: advertisingData)
        model.host = self
        world.peripherals.append(model)
        world.peripheralsByID[spec.id] = model
        if newDatabase { world.record("radio", "\(address) serves \"\(name)\" (\(services.count) service(s))") }
        if world.scanningCentralCount > 0 { model.addObserver() }
        self.model = model
    }
}
