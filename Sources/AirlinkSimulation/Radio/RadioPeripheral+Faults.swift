import AirlinkCore

extension RadioPeripheral {
    /// Moves the peripheral; links go silent when it leaves range and recover if it returns before
    /// their supervision timeout.
    func move(to newPosition: Position) {
        assertConfined()
        position = newPosition
        world.record("fault", "\(id) moves to \(newPosition)")
        reachabilityChanged()
    }

    /// Marks the peripheral out of range (or back).
    func setOutOfRange(_ outOfRange: Bool) {
        assertConfined()
        isOutOfRange = outOfRange
        world.record("fault", "\(id) \(outOfRange ? "moves out of range" : "moves back in range")")
        reachabilityChanged()
    }

    /// Tells every link whether the peripheral can still be heard.
    func reachabilityChanged() {
        assertConfined()
        let reachable = isInRange
        for link in links { link.setPeripheralReachable(reachable) }
    }

    /// Ends every link from the peripheral's side with `reason`.
    func dropLinks(reason: DisconnectionReason) {
        assertConfined()
        world.record("fault", "\(id) drops its links: \(reason)")
        for link in links { link.drop(reason: reason) }
    }

    /// Reboots: the firmware stops answering at once (centrals lose their links after the supervision
    /// timeout), and comes back with the spec's values and state.
    func reset() {
        assertConfined()
        world.record("fault", "\(id) resets")
        for link in links { link.peripheralVanished() }
        links = []
        updateTimerAt = nil
        services = spec.services
        // try?: the spec's database was laid out when the peripheral was added (init threw otherwise)
        if let database = try? AttributeDatabase(spec.gattDefinition) { self.database = database }
        stateStorage = spec.initialState
        isAdvertisingEnabled = spec.advertising != nil
        attFaults = []
        indexCharacteristics(resetUpdates: true)
    }

    /// Replaces the services, as a firmware update does: every link's server sees the new database
    /// and indicates Service Changed to centrals that subscribed (Core Spec Vol 3, Part G, 7.1), unless
    /// `announce` is false (a firmware that changes its database silently).
    func changeDatabase(_ newServices: [Service], announce: Bool = true) {
        assertConfined()
        updateFirmware(FirmwareUpdate(services: newServices, announcesServiceChanged: announce))
    }

    /// Installs new firmware: every link's server sees the new database, connected clients become
    /// change-unaware and those subscribed to Service Changed get it (if the update announces it); bonded
    /// centrals that are away learn of it when they come back. A `.stale` hash keeps the old database's Database
    /// Hash value in the new one.
    func updateFirmware(_ update: FirmwareUpdate) {
        assertConfined()
        var newDatabase: AttributeDatabase
        do {
            newDatabase = try AttributeDatabase(spec.gattDefinition(services: update.services))
        } catch {
            world.record("fault", "\(id) database change refused: \(error.message)")
            return
        }
        let old = database
        if update.hash == .stale, let handle = newDatabase.databaseHashHandle,
            let oldHash = old.databaseHashHandle.flatMap({ old[$0]?.value })
        {
            try? newDatabase.setValue(oldHash, for: handle)  // try?: the handle was just found; a hash is 16 bytes
        }
        let how = update.announcesServiceChanged ? "" : " silently"
        world.record(
            "fault", "\(id) changes its database\(how)\(update.hash == .stale ? ", keeping the old hash" : "")")
        services = update.services
        database = newDatabase
        indexCharacteristics(resetUpdates: true)
        for link in links {
            let (actions, _) = link.server.replaceDatabase(with: newDatabase, announce: update.announcesServiceChanged)
            link.performServerActions(actions)
        }
        if let changed = newDatabase.changedHandles(comparedWith: old) {
            absentClientsSawChange(changed, announced: update.announcesServiceChanged, in: newDatabase)
        }
        armUpdateTimer()
    }

    /// The first fault rule that matches an incoming PDU, used up by one.
    func matchFault(_ pdu: ATTPDU) -> ATTFaultRule.Response? {
        assertConfined()
        guard !attFaults.isEmpty else { return nil }
        let opcode = pdu.opcode
        var handle: ATTHandle?
        var kind: String?
        switch pdu {
        case .readRequest(let h), .readBlobRequest(let h, _):
            handle = h
            kind = "read"
        case .writeRequest(let h, _), .writeCommand(let h, _), .prepareWriteRequest(let h, _, _):
            handle = h
            kind = "write"
        default:
            if opcode.isCommand || opcode == .handleValueConfirmation { return nil }
        }
        let type = handle.flatMap { database[$0]?.type }
        for index in attFaults.indices {
            let matches: Bool
            switch attFaults[index].operation {
            case .any: matches = true
            case .read(let uuid): matches = kind == "read" && (uuid == nil || uuid == type)
            case .write(let uuid): matches = kind == "write" && (uuid == nil || uuid == type)
            case .opcode(let wanted): matches = wanted == opcode
            }
            guard matches else { continue }
            let response = attFaults[index].response
            attFaults[index].remaining -= 1
            if attFaults[index].remaining <= 0 { attFaults.remove(at: index) }
            return response
        }
        return nil
    }
}
