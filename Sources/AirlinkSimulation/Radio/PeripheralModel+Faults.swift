import AirlinkCore

extension PeripheralModel {
    /// Moves the peripheral; links go silent when it leaves range and recover if it returns before
    /// their supervision timeout.
    func move(to newPosition: Position) {
        position = newPosition
        world.record("fault", "\(id) moves to \(newPosition)")
        reachabilityChanged()
    }

    /// Marks the peripheral out of range (or back).
    func setOutOfRange(_ outOfRange: Bool) {
        isOutOfRange = outOfRange
        world.record("fault", "\(id) \(outOfRange ? "moves out of range" : "moves back in range")")
        reachabilityChanged()
    }

    /// Tells every link whether the peripheral can still be heard.
    func reachabilityChanged() {
        let reachable = isInRange
        for link in links { link.setPeripheralReachable(reachable) }
    }

    /// Ends every link from the peripheral's side with `reason`.
    func dropLinks(reason: DisconnectionReason) {
        world.record("fault", "\(id) drops its links: \(reason)")
        for link in links { link.drop(reason: reason) }
    }

    /// Reboots: the firmware stops answering at once (centrals lose their links after the supervision
    /// timeout), and comes back with the spec's values and state.
    func reset() {
        world.record("fault", "\(id) resets")
        for link in links { link.peripheralVanished() }
        links = []
        updateTimerAt = nil
        services = spec.services
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
        let newDatabase: AttributeDatabase
        do {
            newDatabase = try AttributeDatabase(spec.gattDefinition(services: newServices))
        } catch {
            world.record("fault", "\(id) database change refused: \(error.message)")
            return
        }
        world.record("fault", "\(id) changes its database\(announce ? "" : " silently")")
        services = newServices
        database = newDatabase
        indexCharacteristics(resetUpdates: true)
        for link in links {
            let (actions, _) = link.server.replaceDatabase(with: newDatabase, announce: announce)
            link.performServerActions(actions)
        }
        armUpdateTimer()
    }

    /// The first fault rule that matches an incoming PDU, used up by one.
    func matchFault(_ pdu: ATTPDU) -> ATTFaultRule.Response? {
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
