import AirlinkCore

/// Discovers primary services: all of them with Read By Group Type 0x2800 (Core Spec Vol 3, Part G, 4.4.1),
/// or those with one UUID with Find By Type Value (4.4.2), from 0x0001 up to 0xFFFF, until the server
/// answers Attribute Not Found or a group ends at 0xFFFF.
public struct DiscoverPrimaryServicesProcedure: GATTProcedure {
    /// The service UUID sought, or `nil` for all primary services.
    public let uuid: BluetoothUUID?
    private var next = ATTHandle.min
    private var services: [GATTService] = []

    /// Creates the procedure.
    ///
    /// - Parameter uuid: the service UUID to look for, or `nil` for all.
    public init(uuid: BluetoothUUID? = nil) { self.uuid = uuid }

    private var name: String { uuid.map { "discover primary services \($0)" } ?? "discover all primary services" }

    /// Sends the first request, from handle 0x0001.
    public mutating func start() -> GATTProcedureStep<[GATTService]> {
        next = .min
        services = []
        return request()
    }

    private func request() -> GATTProcedureStep<[GATTService]> {
        if let uuid {
            return .send(
                .findByTypeValueRequest(
                    start: next, end: .max, type: 0x2800, value: uuid.attBytes))
        }
        return .send(.readByGroupTypeRequest(start: next, end: .max, type: .primaryServiceDeclaration))
    }

    /// Collects the services found and asks for the rest.
    public mutating func handle(_ response: ATTPDU) -> GATTProcedureStep<[GATTService]> {
        var last: ATTHandle
        switch (response, uuid) {
        case (.readByGroupTypeResponse(let entries), nil):
            last = next
            for entry in entries {
                // try?: a value that is no UUID fails the procedure below as malformedData, naming the response
                guard let found = try? BluetoothUUID(littleEndian: entry.value), entry.handle <= entry.endGroupHandle
                else {
                    return .failed(AirlinkError(.malformedData, "\(name): bad service entry in \(response)"))
                }
                services.append(GATTService(uuid: found, handles: entry.handle...entry.endGroupHandle))
                last = entry.endGroupHandle
            }
        case (.findByTypeValueResponse(let ranges), let uuid?):
            last = next
            for range in ranges {
                services.append(GATTService(uuid: uuid, handles: range))
                last = range.upperBound
            }
        case (.errorResponse(_, _, .attributeNotFound), _):
            return .completed(services)
        case (.errorResponse(let request, let handle, let error), _):
            return .failed(.refused(name, request, handle, error))
        default:
            return .failed(
                .unexpected(name, response, expected: uuid == nil ? .readByGroupTypeResponse : .findByTypeValueResponse)
            )
        }
        if last == .max { return .completed(services) }
        guard last >= next else {
            return .failed(AirlinkError(.malformedData, "\(name): the server went back from \(next) to \(last)"))
        }
        next = ATTHandle(last.rawValue + 1)
        return request()
    }
}
