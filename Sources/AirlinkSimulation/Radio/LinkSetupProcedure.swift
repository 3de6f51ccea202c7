import AirlinkCore

/// What a central does on every new link before `connect` returns: exchange MTU, then (as BlueZ does)
/// find Service Changed and subscribe to its indications.
struct LinkSetupProcedure: GATTProcedure {
    struct Outcome: Sendable {
        var mtu: UInt16
        var serviceChangedHandle: ATTHandle?
    }

    private enum Stage {
        case mtu(ExchangeMTUProcedure)
        case service(DiscoverPrimaryServicesProcedure)
        case characteristic(DiscoverCharacteristicsProcedure)
        case subscribe(ConfigureNotificationsProcedure, ATTHandle)
    }

    private var stage: Stage
    private var outcome = Outcome(mtu: ATTServer.defaultMTU)
    let subscribesToServiceChanged: Bool

    init(requestedMTU: UInt16, subscribesToServiceChanged: Bool) {
        stage = .mtu(ExchangeMTUProcedure(clientMTU: requestedMTU))
        self.subscribesToServiceChanged = subscribesToServiceChanged
    }

    mutating func start() -> GATTProcedureStep<Outcome> {
        guard case .mtu(var procedure) = stage else { return .completed(outcome) }
        let step = procedure.start()
        stage = .mtu(procedure)
        return advance(step)
    }

    mutating func handle(_ response: ATTPDU) -> GATTProcedureStep<Outcome> {
        switch stage {
        case .mtu(var procedure):
            let step = procedure.handle(response)
            stage = .mtu(procedure)
            return advance(step)
        case .service(var procedure):
            let step = procedure.handle(response)
            stage = .service(procedure)
            return advance(step)
        case .characteristic(var procedure):
            let step = procedure.handle(response)
            stage = .characteristic(procedure)
            return advance(step)
        case .subscribe(var procedure, let valueHandle):
            let step = procedure.handle(response)
            stage = .subscribe(procedure, valueHandle)
            return advance(step)
        }
    }

    private mutating func advance<S>(_ step: GATTProcedureStep<S>) -> GATTProcedureStep<Outcome> {
        switch step {
        case .send(let pdu): return .send(pdu)
        case .failed:
            // An error response never fails the link's setup. To the MTU exchange it means the server
            // keeps the default ATT_MTU of 23 (Core Spec Vol 3, Part F, 3.4.2): go on with it, as BlueZ
            // does. Service Changed is optional: without an answer, there is none to follow.
            // (A transaction that times out or a link that drops fails the setup from the link, and
            // both leave the link closed.)
            if case .mtu = stage { return advance(GATTProcedureStep<UInt16>.completed(ATTServer.defaultMTU)) }
            return .completed(outcome)
        case .completed(let value):
            switch stage {
            case .mtu:
                outcome.mtu = value as? UInt16 ?? ATTServer.defaultMTU
                guard subscribesToServiceChanged else { return .completed(outcome) }
                var next = DiscoverPrimaryServicesProcedure(uuid: .genericAttribute)
                stage = .service(next)
                let first = next.start()
                stage = .service(next)
                return advance(first)
            case .service:
                guard let service = (value as? [GATTService])?.first else { return .completed(outcome) }
                var next = DiscoverCharacteristicsProcedure(of: service, uuid: .serviceChanged)
                let first = next.start()
                stage = .characteristic(next)
                return advance(first)
            case .characteristic:
                guard let characteristic = (value as? [GATTCharacteristic])?.first else { return .completed(outcome) }
                var next = ConfigureNotificationsProcedure(
                    characteristic: characteristic, mode: .indicate, knownCCCD: nil)
                let first = next.start()
                stage = .subscribe(next, characteristic.valueHandle)
                return advance(first)
            case .subscribe(_, let valueHandle):
                outcome.serviceChangedHandle = valueHandle
                return .completed(outcome)
            }
        }
    }
}
