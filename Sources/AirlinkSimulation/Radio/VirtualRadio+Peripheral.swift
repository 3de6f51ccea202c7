import AirlinkCore

/// The peripheral role on the virtual radio: the app becomes one more peripheral on the simulation's
/// air, at the radio's ``address``; every other central of the simulation can discover it, connect to
/// it and use its database (see ``/AirlinkCore/PeripheralTransport`` for the contract).
extension VirtualRadio: PeripheralTransport {
    /// The radio's address on the air: `5A:1A:00:00:00:01` for ``Simulation/radio``, then `...:02`...
    public var address: DeviceID {
        let index = UInt64(adapterIndex + 1)
        return DeviceID(BDAddress(value: 0x5A1A_0000_0000 | index), type: .public)
    }

    /// The address centrals see when this radio advertises: ``address``.
    public var peripheralAddress: DeviceID { address }

    /// The role's state, created at first use (under the world's lock).
    var role: VirtualPeripheralRole {
        if let peripheralRole { return peripheralRole }
        let role = VirtualPeripheralRole(world: world, address: address)
        peripheralRole = role
        return role
    }

    /// A new stream of what centrals do to the database this radio serves; it ends at
    /// ``shutdown()`` (an ended one after it).
    public func peripheralEvents() -> EventStream<PeripheralEvent> {
        world.lock.withLock {
            let role = self.role
            if broadcaster.isFinished { role.broadcaster.finish() }  // a role first used after shutdown
            return role.broadcaster.subscribe()
        }
    }

    /// Serves a database; see ``/AirlinkCore/PeripheralTransport/publish(name:services:)``.
    public func publish(name: String, services: [Service]) async throws(AirlinkError) {
        try world.lock.withLock { () throws(AirlinkError) in
            let role = self.role
            if let model = role.model, !model.links.isEmpty {
                throw AirlinkError(
                    .operationInProgress,
                    "cannot replace the database of \"\(name)\" while \(model.links.count) central(s) are connected; "
                        + "unpublish first")
            }
            let previous = (role.name, role.services)
            role.name = name
            role.services = services
            do throws(AirlinkError) {
                try role.installModel(newDatabase: true)
            } catch {
                (role.name, role.services) = previous
                throw error
            }
        }
    }

    /// Stops serving: centrals are disconnected, advertising stops.
    public func unpublish() async {
        world.lock.withLock {
            guard let role = peripheralRole else { return }
            role.removeModel()
            role.name = nil
            role.services = []
            role.advertising = nil
        }
    }

    /// Starts advertising; see ``/AirlinkCore/PeripheralTransport/startAdvertising(_:)``.
    public func startAdvertising(_ advertising: Advertising) async throws(AirlinkError) {
        try world.lock.withLock { () throws(AirlinkError) in
            try checkPowered("advertise")
            let role = self.role
            guard role.name != nil else {
                throw AirlinkError(.invalidArgument, "nothing to advertise: publish a database first")
            }
            if let model = role.model, let current = role.advertising, current.interval == advertising.interval,
                // try?: `current` was installed, so it encodes; a new one that does not differs from it, and
                // installModel below throws its reason
                (try? current.advertisingData()) == (try? advertising.advertisingData())
            {
                model.isAdvertisingEnabled = true
                return
            }
            if let model = role.model, !model.links.isEmpty {
                throw AirlinkError(
                    .operationInProgress,
                    "cannot change what \"\(model.spec.name)\" advertises while centrals are connected")
            }
            let previous = role.advertising
            role.advertising = advertising
            do throws(AirlinkError) {
                try role.installModel(newDatabase: false)
            } catch {
                role.advertising = previous
                throw error
            }
            world.record("radio", "\(address) advertises")
        }
    }

    /// Stops advertising; connected centrals stay connected.
    public func stopAdvertising() async {
        world.lock.withLock {
            guard let model = peripheralRole?.model, model.isAdvertisingEnabled else { return }
            model.isAdvertisingEnabled = false
            world.record("radio", "\(address) stops advertising")
        }
    }

    /// Stores a value and notifies or indicates subscribers.
    public func updateValue(_ bytes: [UInt8], of characteristic: BluetoothUUID, in service: BluetoothUUID)
        async throws(AirlinkError)
    {
        guard bytes.count <= AttributeDatabase.maximumValueLength else {
            throw AirlinkError(
                .invalidArgument,
                "the value of \(characteristic) is \(bytes.count) bytes; an attribute holds at most 512 "
                    + "(Core Spec Vol 3, Part F, 3.2.9)")
        }
        let model = world.lock.withLock { peripheralRole?.model }
        guard let model else {
            throw AirlinkError(.characteristicNotFound, "nothing is published: no characteristic \(characteristic)")
        }
        try model.setBytes(bytes, of: characteristic, in: service)
    }
}

extension VirtualRadio {
    /// Sets how the app answers centrals that pair with it, from the next pairing on (its Security Request
    /// from the next link on); see ``/AirlinkCore/PeripheralTransport/setSecurity(_:)``.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a maximum key size outside 7–16.
    public func setSecurity(_ security: PeripheralRoleSecurity) async throws(AirlinkError) {
        guard AttributePermissions.keySizes.contains(security.features.maximumKeySize) else {
            throw AirlinkError(
                .invalidArgument,
                "a maximum key size is 7 to 16 bytes, not \(security.features.maximumKeySize)")
        }
        world.lock.withLock {
            role.security = security
            world.record(.pairing(adapter: 0, device: address, step: .peripheralRoleFeatures(security.features)))
        }
    }
}
