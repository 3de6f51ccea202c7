import AirlinkCore

/// Discovers the characteristics of a service with Read By Type 0x2803 over the service's handle range
/// (Core Spec Vol 3, Part G, 4.6.1), optionally keeping only those of one UUID (4.6.2).
public struct DiscoverCharacteristicsProcedure: GATTProcedure {
    /// The service whose handle range the Read By Type Requests walk.
    public let service: GATTService
    /// The characteristic UUID sought, or `nil` for all.
    public let uuid: BluetoothUUID?
    private var next: ATTHandle
    private var characteristics: [GATTCharacteristic] = []

    /// Creates the procedure.
    ///
    /// - Parameters:
    ///   - service: the service whose range to search.
    ///   - uuid: a characteristic UUID to keep, or `nil` for all.
    public init(of service: GATTService, uuid: BluetoothUUID? = nil) {
        self.service = service
        self.uuid = uuid
        self.next = service.handles.lowerBound
    }

    private var name: String { "discover characteristics of \(service.uuid)" }

    /// Sends the first Read By Type Request from the service's declaration.
    public mutating func start() -> GATTProcedureStep<[GATTCharacteristic]> {
        next = service.handles.lowerBound
        characteristics = []
        return request()
    }

    private func request() -> GATTProcedureStep<[GATTCharacteristic]> {
        .send(.readByTypeRequest(start: next, end: service.handles.upperBound, type: .characteristicDeclaration))
    }

    private func result() -> GATTProcedureStep<[GATTCharacteristic]> {
        .completed(characteristics.filter { uuid == nil || $0.uuid == uuid })
    }

    /// Parses the declarations found and asks for the rest of the range.
    public mutating func handle(_ response: ATTPDU) -> GATTProcedureStep<[GATTCharacteristic]> {
        switch response {
        case .readByTypeResponse(let entries):
            for entry in entries {
                let value = entry.value
                guard value.count == 5 || value.count == 19,
                    // try?: a declaration without a UUID fails the procedure below as malformedData, naming its handle
                    let found = try? BluetoothUUID(littleEndian: value[3...]),
                    entry.handle >= next
                else {
                    return .failed(
                        AirlinkError(.malformedData, "\(name): bad characteristic declaration at \(entry.handle)"))
                }
                characteristics.append(
                    GATTCharacteristic(
                        uuid: found, declarationHandle: entry.handle,
                        valueHandle: ATTHandle(UInt16(value[1]) | UInt16(value[2]) << 8),
                        properties: CharacteristicProperties(rawValue: value[0])))
            }
            guard let last = entries.last?.handle, last < service.handles.upperBound else { return result() }
            next = ATTHandle(last.rawValue + 1)
            return request()
        case .errorResponse(_, _, .attributeNotFound):
            return result()
        case .errorResponse(let request, let handle, let error):
            return .failed(.refused(name, request, handle, error))
        default:
            return .failed(.unexpected(name, response, expected: .readByTypeResponse))
        }
    }
}
