import AirlinkCore

/// Write Characteristic Value: one Write Request, answered by a Write Response
/// (Core Spec Vol 3, Part G, 4.9.3).
struct WriteRequestProcedure: GATTProcedure {
    let handle: ATTHandle
    let value: [UInt8]

    mutating func start() -> GATTProcedureStep<Void> { .send(.writeRequest(handle: handle, value: value)) }

    mutating func handle(_ response: ATTPDU) -> GATTProcedureStep<Void> {
        switch response {
        case .writeResponse: return .completed(())
        case .errorResponse(let request, let handle, let error):
            return .failed(.refused("write \(self.handle)", request, handle, error))
        default: return .failed(.unexpected("write \(handle)", response, expected: .writeResponse))
        }
    }
}

/// Finds the Client Characteristic Configuration descriptor of a characteristic with Find Information
/// from the handle after its value up to its next declaration, then writes it
/// (Core Spec Vol 3, Part G, 4.7.1 and 4.12.3).
struct ConfigureNotificationsProcedure: GATTProcedure {
    let characteristic: GATTCharacteristic
    let mode: NotificationMode
    private(set) var cccd: ATTHandle?
    private var next: ATTHandle

    init(characteristic: GATTCharacteristic, mode: NotificationMode, knownCCCD: ATTHandle?) {
        self.characteristic = characteristic
        self.mode = mode
        self.cccd = knownCCCD
        self.next = ATTHandle(characteristic.valueHandle.rawValue &+ 1)
    }

    private var name: String { "set notifications of \(characteristic.uuid)" }

    mutating func start() -> GATTProcedureStep<ATTHandle> {
        if let cccd { return write(cccd) }
        guard characteristic.valueHandle < .max else { return notFound() }
        return .send(.findInformationRequest(start: next, end: .max))
    }

    private func write(_ handle: ATTHandle) -> GATTProcedureStep<ATTHandle> {
        let bits = mode.cccdValue
        return .send(.writeRequest(handle: handle, value: [UInt8(bits & 0xFF), UInt8(bits >> 8)]))
    }

    private func notFound() -> GATTProcedureStep<ATTHandle> {
        .failed(
            AirlinkError(
                .operationNotSupported,
                "\(name): the characteristic has no Client Characteristic Configuration descriptor (it neither "
                    + "notifies nor indicates; its properties are \(characteristic.properties))"))
    }

    mutating func handle(_ response: ATTPDU) -> GATTProcedureStep<ATTHandle> {
        switch response {
        case .findInformationResponse(let entries):
            let declarations: [BluetoothUUID] = [
                .characteristicDeclaration, .primaryServiceDeclaration, .secondaryServiceDeclaration,
                .includeDeclaration,
            ]
            for entry in entries {
                if declarations.contains(entry.type) { return notFound() }
                if entry.type == .clientCharacteristicConfiguration {
                    cccd = entry.handle
                    return write(entry.handle)
                }
            }
            guard let last = entries.last?.handle, last < .max else { return notFound() }
            next = ATTHandle(last.rawValue + 1)
            return .send(.findInformationRequest(start: next, end: .max))
        case .errorResponse(.findInformationRequest, _, .attributeNotFound):
            return notFound()
        case .writeResponse:
            guard let cccd else { return .failed(.unexpected(name, response, expected: .findInformationResponse)) }
            return .completed(cccd)
        case .errorResponse(let request, let handle, let error):
            return .failed(.refused(name, request, handle, error))
        default:
            return .failed(
                .unexpected(name, response, expected: cccd == nil ? .findInformationResponse : .writeResponse))
        }
    }
}

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
        case .failed(let error):
            // Service Changed is optional; only a failed MTU exchange fails the setup.
            if case .mtu = stage { return .failed(error) }
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
