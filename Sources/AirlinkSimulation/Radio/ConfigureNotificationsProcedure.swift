import AirlinkCore

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
