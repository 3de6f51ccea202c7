import AirlinkCore

/// Reads the value of the first attribute of one type in the whole database with a single Read By Type
/// Request (Core Spec Vol 3, Part G, 4.8.2 "Read Using Characteristic UUID"): how a client reads the Database
/// Hash (0x2B2A) in one round trip, and the one request a change-unaware client with robust caching is served.
public struct ReadByTypeValueProcedure: GATTProcedure {
    /// The attribute type read.
    public let type: BluetoothUUID

    /// Creates the procedure.
    ///
    /// - Parameter type: the attribute type to read, such as `.databaseHash`.
    public init(type: BluetoothUUID) { self.type = type }

    /// Sends the Read By Type Request over 0x0001–0xFFFF.
    public func start() -> GATTProcedureStep<[UInt8]?> {
        .send(.readByTypeRequest(start: ATTHandle(0x0001), end: ATTHandle(0xFFFF), type: type))
    }

    /// The first value found, `nil` on Attribute Not Found.
    public func handle(_ response: ATTPDU) -> GATTProcedureStep<[UInt8]?> {
        switch response {
        case .readByTypeResponse(let entries):
            return .completed(entries.first?.value ?? [])
        case .errorResponse(_, _, .attributeNotFound):
            return .completed(nil)
        case .errorResponse(let request, let handle, let error):
            return .failed(.refused("read \(type) by type", request, handle, error))
        default:
            return .failed(.unexpected("read \(type) by type", response, expected: .readByTypeResponse))
        }
    }
}
